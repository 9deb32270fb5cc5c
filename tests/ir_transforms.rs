//! The transformations between the binary form and the IR, one at a time, on small modules
//! written in assembly text: constants unified, decorations folded (groups expanded), `OpPhi`
//! ↔ block arguments, merges ↔ structured constructs, forward pointers ↔ recursive types,
//! `OpLine` ↔ locations, module-level non-semantic instructions, and errors with offsets.

use spvkit::binary::decode_module;
use spvkit::grammar::{Decoration, Instruction, Opcode};
use spvkit::ir::{self, ConstantValue, IrErrorKind, Module, Structure, Terminator, Type, Value};
use spvkit::text::{assemble, AssembleOptions};

fn words(text: &str) -> Vec<u32> {
    assemble(text, &AssembleOptions::default())
        .unwrap_or_else(|e| panic!("test module does not assemble: {e}\n{text}"))
}

fn ir_of(text: &str) -> Module {
    let m = ir::deserialize(&words(text)).unwrap_or_else(|e| panic!("deserialize: {e}"));
    let again =
        ir::deserialize(&ir::serialize(&m).expect("serializes")).expect("the output deserializes");
    assert_eq!(again, m, "the IR survives a round trip");
    m
}

/// The opcodes of the serialized module, in order.
fn opcodes(m: &Module) -> Vec<Opcode> {
    let (_, insts) =
        decode_module(&ir::serialize(m).expect("serializes")).expect("the output decodes");
    insts.iter().filter_map(Instruction::opcode).collect()
}

const HEADER: &str = "OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\n";

#[test]
fn duplicate_constants_and_types_are_unified() {
    let m = ir_of(&format!(
        "{HEADER}%int = OpTypeInt 32 1\n%int2 = OpTypeInt 32 1\n%void = OpTypeVoid\n\
         %a = OpConstant %int 7\n%b = OpConstant %int2 7\n%fn = OpTypeFunction %void\n\
         %f = OpFunction %void None %fn\n%l = OpLabel\n%u = OpUndef %int\n%s = OpIAdd %int %a %b\n\
         %t = OpIAdd %int %s %u\nOpReturn\nOpFunctionEnd\n"
    ));
    let ints = m
        .types
        .iter()
        .filter(|(_, t)| matches!(t, Type::Int { .. }))
        .count();
    assert_eq!(ints, 1);
    let scalars = m
        .constants
        .iter()
        .filter(|(_, c)| matches!(c.value, ConstantValue::Scalar(_)))
        .count();
    assert_eq!(scalars, 1);
    // The function-local OpUndef is a module constant now.
    assert!(m
        .constants
        .iter()
        .any(|(_, c)| c.value == ConstantValue::Undef));
    let ops = opcodes(&m);
    assert_eq!(ops.iter().filter(|&&o| o == Opcode::Constant).count(), 1);
    assert_eq!(ops.iter().filter(|&&o| o == Opcode::TypeInt).count(), 1);
}

#[test]
fn decorations_and_names_are_folded_and_groups_expanded() {
    let m = ir_of(&format!(
        "{HEADER}OpName %x \"x\"\nOpDecorate %g Flat\nOpDecorate %g Location 3\n%g = OpDecorationGroup\n\
         OpGroupDecorate %g %x %y\nOpDecorate %y Centroid\nOpMemberDecorate %S 0 Offset 4\n\
         OpMemberName %S 0 \"m\"\nOpDecorate %S Block\nOpDecorate %arr ArrayStride 16\n\
         %float = OpTypeFloat 32\n%uint = OpTypeInt 32 0\n%four = OpConstant %uint 4\n\
         %arr = OpTypeArray %float %four\n%S = OpTypeStruct %arr\n\
         %p = OpTypePointer Input %float\n%x = OpVariable %p Input\n%y = OpVariable %p Input\n"
    ));
    let (_, x) = m.globals.iter().next().unwrap();
    assert_eq!(x.name.as_deref(), Some("x"));
    assert_eq!(
        x.decorations,
        vec![Decoration::Flat, Decoration::Location(3)]
    );
    let (_, y) = m.globals.iter().nth(1).unwrap();
    assert_eq!(
        y.decorations,
        vec![
            Decoration::Flat,
            Decoration::Location(3),
            Decoration::Centroid
        ]
    );
    let s = m
        .types
        .iter()
        .find_map(|(_, t)| match t {
            Type::Struct(s) => Some(s),
            _ => None,
        })
        .unwrap();
    assert_eq!(s.decorations, vec![Decoration::Block]);
    assert_eq!(s.members[0].offset, Some(4));
    assert_eq!(s.members[0].name.as_deref(), Some("m"));
    assert!(matches!(
        m.types[s.members[0].ty],
        Type::Array {
            stride: Some(16),
            ..
        }
    ));
    let ops = opcodes(&m);
    assert!(!ops.contains(&Opcode::DecorationGroup));
    assert!(!ops.contains(&Opcode::GroupDecorate));
}

#[test]
fn phis_become_block_arguments_and_merges_structures() {
    let m = ir_of(&format!(
        "{HEADER}%bool = OpTypeBool\n%int = OpTypeInt 32 1\n%fn = OpTypeFunction %int %bool\n\
         %one = OpConstant %int 1\n%two = OpConstant %int 2\n\
         %f = OpFunction %int None %fn\n%c = OpFunctionParameter %bool\n%entry = OpLabel\n\
         OpSelectionMerge %merge None\nOpBranchConditional %c %then %merge\n\
         %then = OpLabel\n%x = OpIAdd %int %one %two\nOpBranch %merge\n\
         %merge = OpLabel\n%phi = OpPhi %int %x %then %one %entry\nOpReturnValue %phi\nOpFunctionEnd\n"
    ));
    let (_, f) = m.functions.iter().next().unwrap();
    let blocks: Vec<_> = f.blocks.iter().collect();
    let (entry, merge) = (blocks[0].1, blocks[2]);
    assert!(matches!(
        entry.structure,
        Some(Structure::Selection { merge: h, .. }) if h == merge.0
    ));
    assert_eq!(merge.1.args.len(), 1);
    let arg = Value::BlockArg(merge.1.args[0]);
    assert_eq!(merge.1.terminator, Terminator::ReturnValue(arg));
    // The entry passes %one to the merge block, the then-block passes %x.
    let Terminator::BranchConditional { false_target, .. } = &entry.terminator else {
        panic!("entry ends in a conditional branch");
    };
    assert!(matches!(false_target.args[..], [Value::Constant(_)]));
    let Terminator::Branch(s) = &blocks[1].1.terminator else {
        panic!("then ends in a branch");
    };
    assert!(matches!(s.args[..], [Value::Op(_)]));
    let ops = opcodes(&m);
    assert_eq!(ops.iter().filter(|&&o| o == Opcode::Phi).count(), 1);
    assert_eq!(
        ops.iter().filter(|&&o| o == Opcode::SelectionMerge).count(),
        1
    );
}

#[test]
fn recursive_pointer_types_round_trip_with_forward_pointers() {
    let text =
        "OpCapability Shader\nOpCapability PhysicalStorageBufferAddresses\nOpCapability Linkage\n\
        OpExtension \"SPV_KHR_physical_storage_buffer\"\n\
        OpMemoryModel PhysicalStorageBuffer64 GLSL450\n\
        OpTypeForwardPointer %p PhysicalStorageBuffer\n%int = OpTypeInt 32 1\n\
        %node = OpTypeStruct %int %p\n%p = OpTypePointer PhysicalStorageBuffer %node\n";
    let m = ir_of(text);
    let (ph, p) = m
        .types
        .iter()
        .find(|(_, t)| matches!(t, Type::Pointer { .. }))
        .unwrap();
    let Type::Pointer { pointee, .. } = p else {
        unreachable!()
    };
    let Type::Struct(node) = &m.types[*pointee] else {
        panic!("the pointee is the struct");
    };
    assert_eq!(
        node.members[1].ty, ph,
        "the struct contains the pointer to itself"
    );
    assert!(opcodes(&m).contains(&Opcode::TypeForwardPointer));
}

#[test]
fn lines_become_locations_and_nonsemantic_instructions_survive() {
    let m = ir_of(
        "OpCapability Shader\nOpCapability Linkage\nOpExtension \"SPV_KHR_non_semantic_info\"\n\
         %ns = OpExtInstImport \"NonSemantic.Vendor.Thing\"\nOpMemoryModel Logical GLSL450\n\
         %file = OpString \"a.glsl\"\n%void = OpTypeVoid\n%int = OpTypeInt 32 1\n%one = OpConstant %int 1\n\
         %fn = OpTypeFunction %void\n%info = OpExtInst %void %ns 7 %one %file\n\
         %f = OpFunction %void None %fn\n%l = OpLabel\nOpLine %file 3 4\n%x = OpIAdd %int %one %one\n\
         OpNoLine\n%y = OpIAdd %int %x %one\nOpReturn\nOpFunctionEnd\n",
    );
    let (_, f) = m.functions.iter().next().unwrap();
    let ops: Vec<_> = f.ops.iter().map(|(_, o)| o).collect();
    let loc = ops[0].loc.expect("the first op has a location");
    assert_eq!(
        (m.strings[loc.file].as_str(), loc.line, loc.column),
        ("a.glsl", 3, 4)
    );
    assert_eq!(ops[1].loc, None);
    assert_eq!(m.ext_insts.len(), 1);
    let out = opcodes(&m);
    assert_eq!(out.iter().filter(|&&o| o == Opcode::Line).count(), 1);
    assert_eq!(out.iter().filter(|&&o| o == Opcode::NoLine).count(), 1);
    assert_eq!(out.iter().filter(|&&o| o == Opcode::ExtInst).count(), 1);
    let text = ir::print(&m);
    assert!(text.contains("loc(\"a.glsl\":3:4)"), "{text}");
    assert!(text.contains("spirv.NonSemantic.Vendor.Thing.7"), "{text}");
}

#[test]
fn errors_have_offsets_and_reasons() {
    // %nope is used but never defined.
    let mut w = words(&format!(
        "{HEADER}%int = OpTypeInt 32 1\n%a = OpConstant %int 1\n%v = OpTypeVector %int 2\n"
    ));
    // Point OpTypeVector's component type at an id that is never defined.
    let last = w.len() - 2;
    w[last] = 100;
    w[3] = 200; // bound
    let e = ir::deserialize(&w).unwrap_err();
    assert_eq!(e.kind, IrErrorKind::UndefinedId(100));
    assert!(e.offset > 5 && e.offset < w.len());
    assert!(e.to_string().starts_with("word "), "{e}");
    // Too short for a header.
    assert!(ir::deserialize(&w[..3]).is_err());
}

#[test]
fn operand_values_include_extended_instruction_operands() {
    let m = ir_of(&format!(
        "{HEADER}%glsl = OpExtInstImport \"GLSL.std.450\"\n%float = OpTypeFloat 32\n\
         %fn = OpTypeFunction %float %float\n%f = OpFunction %float None %fn\n\
         %x = OpFunctionParameter %float\n%l = OpLabel\n%y = OpExtInst %float %glsl FMax %x %x\n\
         OpReturnValue %y\nOpFunctionEnd\n"
    ));
    let (_, f) = m.functions.iter().next().unwrap();
    let (h, op) = f.ops.iter().next().unwrap();
    let mut vs = Vec::new();
    m.visit_values(&op.inst, |v| vs.push(v));
    assert!(matches!(
        vs[..],
        [Value::Type(_), Value::Op(r), Value::ExtInstSet(_), Value::Param(0), Value::Param(0)] if r == h
    ));
    assert!(ir::print(&m).contains("= spirv.GL.FMax %arg0, %arg0 : f32"));
}

#[test]
fn printing_is_mlir_like() {
    let m = ir_of(&format!(
        "{HEADER}%float = OpTypeFloat 32\n%fn = OpTypeFunction %float %float\n\
         %f = OpFunction %float None %fn\n%x = OpFunctionParameter %float\n%l = OpLabel\n\
         %y = OpFMul %float %x %x\nOpReturnValue %y\nOpFunctionEnd\n"
    ));
    let text = ir::print(&m);
    assert!(
        text.starts_with(
            "spirv.module Logical GLSL450 requires #spirv.vce<v1.6, [Shader, Linkage], []> {"
        ),
        "{text}"
    );
    assert!(
        text.contains("spirv.func @fn0(%arg0: f32) -> f32"),
        "{text}"
    );
    assert!(
        text.contains("%0 = spirv.FMul %arg0, %arg0 : f32"),
        "{text}"
    );
    assert!(text.contains("spirv.ReturnValue %0"), "{text}");
}

#[test]
fn long_chains_of_forward_pointers_do_not_recurse_deeply() {
    // p0 -> s0 { int, p1 } ... p(n-1) -> s(n-1) { int, int }: every pointer is forward-declared
    // before any struct, so each is completed only after a later type.
    let n = 3000;
    let mut text = String::from(
        "OpCapability Shader\nOpCapability Linkage\nOpCapability PhysicalStorageBufferAddresses\n\
         OpMemoryModel PhysicalStorageBuffer64 GLSL450\n",
    );
    for i in 0..n {
        text += &format!("OpTypeForwardPointer %p{i} PhysicalStorageBuffer\n");
    }
    text += "%int = OpTypeInt 32 1\n";
    for i in 0..n {
        let next = if i + 1 < n {
            format!("%p{}", i + 1)
        } else {
            "%int".into()
        };
        text += &format!(
            "%s{i} = OpTypeStruct %int {next}\n%p{i} = OpTypePointer PhysicalStorageBuffer %s{i}\n"
        );
    }
    let words = words(&text);
    // A small stack: recursion along the chain would overflow it.
    let t = std::thread::Builder::new()
        .stack_size(512 << 10)
        .spawn(move || {
            let m = ir::deserialize(&words).expect("deserializes");
            let _ = ir::print(&m);
            let again =
                ir::deserialize(&ir::serialize(&m).expect("serializes")).expect("reads back");
            assert!(again == m);
        })
        .expect("a thread");
    t.join().expect("no stack overflow");
}
