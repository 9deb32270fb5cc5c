//! The IR analyses (`ir::analysis`) and the optimizer's passes (`opt`), on small modules
//! written in assembly text; each optimized module is checked with spirv-val, and the
//! HLSL corpus's compute shaders compute the same buffers before and after.

use spvkit::ir::analysis::{CallGraph, Cfg, DefUse, DomTree, LoopNest, UseCounts, User};
use spvkit::ir::{self, Block, Handle, Module};
use spvkit::opt::Pass;
use spvkit::text::{assemble, disassemble_to_string, AssembleOptions, DisassembleOptions};

fn ir_of(text: &str) -> Module {
    let words = assemble(text, &AssembleOptions::default())
        .unwrap_or_else(|e| panic!("test module does not assemble: {e}\n{text}"));
    ir::deserialize(&words).unwrap_or_else(|e| panic!("deserialize: {e}"))
}

/// spirv-val's verdict on `m` (Vulkan 1.3).
fn spirv_val(m: &Module) -> Result<(), String> {
    let words = ir::serialize(m).map_err(|e| e.to_string())?;
    let path = std::env::temp_dir().join(format!(
        "spvkit-opt-{}-{:?}.spv",
        std::process::id(),
        std::thread::current().id()
    ));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&path, bytes).unwrap();
    let out = std::process::Command::new("spirv-val")
        .args(["--target-env", "vulkan1.3"])
        .arg(&path)
        .output()
        .expect("spirv-val runs (apt-get install spirv-tools)");
    let _ = std::fs::remove_file(&path);
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

const HEADER: &str = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n\
    OpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n\
    %void = OpTypeVoid\n%bool = OpTypeBool\n%int = OpTypeInt 32 1\n%fn = OpTypeFunction %void\n\
    %c0 = OpConstant %int 0\n%c1 = OpConstant %int 1\n%ptr = OpTypePointer Function %int\n";

/// A loop whose body holds an if/else: entry → header ⇄ (body → then|else → join → continue),
/// header → merge.
fn looped_diamond() -> Module {
    ir_of(&format!(
        "{HEADER}%main = OpFunction %void None %fn\n\
         %entry = OpLabel\n%x = OpVariable %ptr Function\nOpBranch %header\n\
         %header = OpLabel\n%i = OpLoad %int %x\n%go = OpSLessThan %bool %i %c1\n\
         OpLoopMerge %merge %cont None\nOpBranchConditional %go %body %merge\n\
         %body = OpLabel\n%p = OpIEqual %bool %i %c0\nOpSelectionMerge %join None\n\
         OpBranchConditional %p %then %else\n\
         %then = OpLabel\nOpBranch %join\n\
         %else = OpLabel\nOpBranch %join\n\
         %join = OpLabel\nOpBranch %cont\n\
         %cont = OpLabel\n%n = OpIAdd %int %i %c1\nOpStore %x %n\nOpBranch %header\n\
         %merge = OpLabel\nOpReturn\nOpFunctionEnd\n"
    ))
}

/// The block of `m`'s first function at position `i` in layout order.
fn block(i: usize) -> Handle<Block> {
    Handle::new(i)
}

#[test]
fn control_flow_graph_and_dominators_of_a_loop_with_a_diamond() {
    let m = looped_diamond();
    let f = m.functions.iter().next().unwrap().1;
    let cfg = Cfg::new(f);
    // Layout: entry 0, header 1, body 2, then 3, else 4, join 5, cont 6, merge 7.
    assert_eq!(cfg.successors(block(1)), [block(2), block(7)]);
    assert_eq!(cfg.predecessors(block(1)), [block(0), block(6)]);
    assert_eq!(cfg.predecessors(block(5)), [block(3), block(4)]);
    assert_eq!(cfg.reverse_postorder()[0], block(0));
    assert_eq!(cfg.reverse_postorder().len(), 8);
    let dom = DomTree::dominators(&cfg);
    let idoms: Vec<Option<usize>> = (0..8)
        .map(|i| dom.idom(block(i)).map(|b| b.index()))
        .collect();
    assert_eq!(
        idoms,
        [
            None,
            Some(0),
            Some(1),
            Some(2),
            Some(2),
            Some(2),
            Some(5),
            Some(1)
        ]
    );
    assert!(dom.dominates(block(1), block(6)));
    assert!(!dom.dominates(block(3), block(5)));
    let post = DomTree::post_dominators(&cfg);
    let ipdoms: Vec<Option<usize>> = (0..8)
        .map(|i| post.idom(block(i)).map(|b| b.index()))
        .collect();
    // Everything reaches the merge through the header; the diamond's arms meet at the join.
    assert_eq!(
        ipdoms,
        [
            Some(1),
            Some(7),
            Some(5),
            Some(5),
            Some(5),
            Some(6),
            Some(1),
            None
        ]
    );
    assert!(post.dominates(block(7), block(0)));
}

#[test]
fn the_loop_nest_names_each_loops_blocks_and_parent() {
    // entry -> outer ⇄ (obody -> inner ⇄ (ibody -> icont) -> imerge -> ocont), outer -> omerge
    let m = ir_of(&format!(
        "{HEADER}%main = OpFunction %void None %fn\n\
         %entry = OpLabel\n%x = OpVariable %ptr Function\nOpBranch %outer\n\
         %outer = OpLabel\n%i = OpLoad %int %x\n%go = OpSLessThan %bool %i %c1\n\
         OpLoopMerge %omerge %ocont None\nOpBranchConditional %go %obody %omerge\n\
         %obody = OpLabel\nOpBranch %inner\n\
         %inner = OpLabel\nOpLoopMerge %imerge %icont None\nOpBranchConditional %go %ibody %imerge\n\
         %ibody = OpLabel\nOpBranch %icont\n%icont = OpLabel\nOpBranch %inner\n\
         %imerge = OpLabel\nOpBranch %ocont\n\
         %ocont = OpLabel\nOpStore %x %c1\nOpBranch %outer\n\
         %omerge = OpLabel\nOpReturn\nOpFunctionEnd\n"
    ));
    let f = m.functions.iter().next().unwrap().1;
    let cfg = Cfg::new(f);
    let nest = LoopNest::new(f, &cfg, &DomTree::dominators(&cfg));
    // Blocks by layout position: entry 0, outer 1, obody 2, inner 3, ibody 4, icont 5,
    // imerge 6, ocont 7, omerge 8.
    assert_eq!(nest.loops.len(), 2);
    let (outer, inner) = (&nest.loops[0], &nest.loops[1]);
    assert_eq!(
        (outer.header, outer.merge, outer.continue_target),
        (block(1), block(8), block(7))
    );
    assert_eq!(outer.parent, None);
    let mut blocks = outer.blocks.clone();
    blocks.sort_by_key(|b| b.index());
    assert_eq!(blocks, (1..=7).map(block).collect::<Vec<_>>());
    assert_eq!(
        (inner.header, inner.merge, inner.continue_target),
        (block(3), block(6), block(5))
    );
    assert_eq!(inner.parent, Some(0));
    assert_eq!(inner.blocks.len(), 3);
    assert_eq!(nest.depth(block(4)), 2);
    assert_eq!(nest.depth(block(6)), 1);
    assert_eq!(nest.depth(block(8)), 0);
    assert_eq!(nest.headed_by(block(3)), Some(inner));
    assert_eq!(nest.headed_by(block(2)), None);
}

#[test]
fn unreachable_blocks_are_outside_the_dominator_tree() {
    let m = ir_of(&format!(
        "{HEADER}%main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\n\
         %dead = OpLabel\nOpBranch %entry2\n%entry2 = OpLabel\nOpReturn\nOpFunctionEnd\n"
    ));
    let f = m.functions.iter().next().unwrap().1;
    let cfg = Cfg::new(f);
    assert!(cfg.is_reachable(block(0)) && !cfg.is_reachable(block(1)));
    let dom = DomTree::dominators(&cfg);
    assert!(!dom.contains(block(1)) && !dom.dominates(block(0), block(2)));
}

#[test]
fn use_counts_and_call_graph() {
    let m = ir_of(
        &format!(
        "{HEADER}%helper = OpFunction %int None %fint\n%h = OpLabel\n%s = OpIAdd %int %c1 %c1\n\
         %d = OpIMul %int %s %s\nOpReturnValue %d\nOpFunctionEnd\n\
         %unused = OpFunction %void None %fn\n%u = OpLabel\nOpReturn\nOpFunctionEnd\n\
         %main = OpFunction %void None %fn\n%e = OpLabel\n%r = OpFunctionCall %int %helper\n\
         OpReturn\nOpFunctionEnd\n"
    )
        .replace(
            "%ptr = OpTypePointer",
            "%fint = OpTypeFunction %int\n%ptr = OpTypePointer",
        ),
    );
    let (helper, f) = m.functions.iter().next().unwrap();
    let uses = UseCounts::new(&m, f);
    let ops: Vec<u32> = f.blocks[block(0)]
        .ops
        .iter()
        .map(|&h| uses.of_op(h))
        .collect();
    assert_eq!(ops, [2, 1], "%s is used twice, %d once (by the return)");
    let calls = CallGraph::new(&m);
    let main = Handle::new(2);
    assert_eq!(calls.callees(main), [helper]);
    assert_eq!(calls.reached_from([main]), [true, false, true]);
    // The function nothing reaches goes; the call still names its callee.
    let text = after(m, &[Pass::EliminateDeadFunctions]);
    assert_eq!(text.matches("OpFunctionEnd").count(), 2, "{text}");
    assert!(text.contains("OpFunctionCall %int %"), "{text}");
}

#[test]
fn exported_functions_and_functions_named_by_debug_information_are_kept() {
    let m = ir_of(
        "OpCapability Shader\nOpCapability Linkage\nOpExtension \"SPV_KHR_non_semantic_info\"\n\
         %dbg = OpExtInstImport \"NonSemantic.Shader.DebugInfo.100\"\n\
         OpMemoryModel Logical GLSL450\nOpDecorate %lib LinkageAttributes \"lib\" Export\n\
         %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%int = OpTypeInt 32 0\n\
         %name = OpString \"f\"\n%one = OpConstant %int 1\n\
         %none = OpExtInst %void %dbg DebugInfoNone\n\
         %lib = OpFunction %void None %fn\n%a = OpLabel\nOpReturn\nOpFunctionEnd\n\
         %named = OpFunction %void None %fn\n%b = OpLabel\nOpReturn\nOpFunctionEnd\n\
         %gone = OpFunction %void None %fn\n%c = OpLabel\nOpReturn\nOpFunctionEnd\n\
         %df = OpExtInst %void %dbg DebugFunctionDefinition %none %named\n",
    );
    let mut m = m;
    assert!(Pass::EliminateDeadFunctions.run(&mut m));
    assert_eq!(m.functions.len(), 2);
    let names: Vec<usize> = m.functions.iter().map(|(_, f)| f.blocks.len()).collect();
    assert_eq!(names, [1, 1]);
}

#[test]
fn dead_code_elimination_removes_unused_pure_ops_and_block_arguments_only() {
    let mut m = ir_of(&format!(
        "{HEADER}%f32 = OpTypeFloat 32\n%ext = OpExtInstImport \"GLSL.std.450\"\n\
         %main = OpFunction %void None %fn\n%entry = OpLabel\n%x = OpVariable %ptr Function\n\
         %unused_var = OpVariable %ptr Function\n\
         %a = OpIAdd %int %c1 %c1\n%b = OpIMul %int %a %c1\n\
         %kept = OpLoad %int %x\nOpStore %x %kept\n\
         %vol = OpLoad %int %x Volatile\n\
         %abs = OpExtInst %int %ext SAbs %c1\n\
         %cond = OpSLessThan %bool %c0 %c1\nOpSelectionMerge %join None\n\
         OpBranchConditional %cond %then %else\n\
         %then = OpLabel\n%t = OpIAdd %int %c1 %c1\nOpBranch %join\n\
         %else = OpLabel\nOpBranch %join\n\
         %join = OpLabel\n%phi = OpPhi %int %t %then %c0 %else\nOpReturn\nOpFunctionEnd\n"
    ));
    assert!(Pass::EliminateDeadCode.run(&mut m));
    let words = ir::serialize(&m).unwrap();
    let text = disassemble_to_string(&words, &DisassembleOptions::default()).unwrap();
    for gone in ["OpIAdd", "OpIMul", "OpPhi", "SAbs"] {
        assert!(!text.contains(gone), "{gone} should be removed:\n{text}");
    }
    for kept in ["OpStore", "Volatile", "OpSLessThan"] {
        assert!(text.contains(kept), "{kept} should stay:\n{text}");
    }
    // The stored variable and both loads stay; the variable nothing uses goes.
    assert_eq!(text.matches("OpVariable").count(), 1, "{text}");
    assert_eq!(text.matches("OpLoad").count(), 2, "{text}");
    spirv_val(&m).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert!(
        !Pass::EliminateDeadCode.run(&mut m),
        "a second run changes nothing"
    );
}

/// `m` after `passes`, disassembled; spirv-val must accept it.
fn after(mut m: Module, passes: &[Pass]) -> String {
    for p in passes {
        p.run(&mut m);
    }
    let words = ir::serialize(&m).unwrap();
    let text = disassemble_to_string(&words, &DisassembleOptions::default()).unwrap();
    spirv_val(&m).unwrap_or_else(|e| panic!("{e}\n{text}"));
    text
}

#[test]
fn ssa_rewrite_turns_a_diamond_and_a_loop_counter_into_phis() {
    // x = c ? 7 : 9; i = 0; while (i < x) i = i + 1; out = i (through a Private variable).
    let m = ir_of(
        &format!(
            "{HEADER}%c7 = OpConstant %int 7\n%c9 = OpConstant %int 9\n\
         %pptr = OpTypePointer Private %int\n%out = OpVariable %pptr Private\n\
         %main = OpFunction %void None %fn\n\
         %entry = OpLabel\n%x = OpVariable %ptr Function\n%i = OpVariable %ptr Function\n\
         %cond = OpSLessThan %bool %c0 %c1\nOpSelectionMerge %join None\n\
         OpBranchConditional %cond %then %else\n\
         %then = OpLabel\nOpStore %x %c7\nOpBranch %join\n\
         %else = OpLabel\nOpStore %x %c9\nOpBranch %join\n\
         %join = OpLabel\nOpStore %i %c0\nOpBranch %header\n\
         %header = OpLabel\n%iv = OpLoad %int %i\n%xv = OpLoad %int %x\n\
         %go = OpSLessThan %bool %iv %xv\nOpLoopMerge %merge %cont None\n\
         OpBranchConditional %go %body %merge\n\
         %body = OpLabel\nOpBranch %cont\n\
         %cont = OpLabel\n%iv2 = OpLoad %int %i\n%n = OpIAdd %int %iv2 %c1\nOpStore %i %n\n\
         OpBranch %header\n\
         %merge = OpLabel\n%last = OpLoad %int %i\nOpStore %out %last\nOpReturn\nOpFunctionEnd\n"
        )
        .replace("\"main\"\n", "\"main\" %out\n"),
    );
    let text = after(m, &[Pass::SsaRewrite, Pass::EliminateDeadCode]);
    // Only the Private variable and its store remain of the memory traffic.
    assert_eq!(text.matches("OpVariable").count(), 1, "{text}");
    assert_eq!(text.matches("OpLoad").count(), 0, "{text}");
    assert_eq!(text.matches("OpStore").count(), 1, "{text}");
    // The join's phi takes 7 or 9; the header's the start value or the increment; `x`
    // passes through the loop unchanged, so it needs no phi there.
    assert_eq!(text.matches("OpPhi").count(), 2, "{text}");
    assert!(
        text.contains("OpPhi %int %int_7 ") && text.contains("%int_9 "),
        "{text}"
    );
    assert!(text.contains("OpPhi %int %int_0 "), "{text}");
}

#[test]
fn ssa_rewrite_leaves_variables_whose_address_escapes_and_reads_undef_before_a_store() {
    let m = ir_of(
        &format!(
            "{HEADER}%pptr = OpTypePointer Private %int\n%out = OpVariable %pptr Private\n\
         %ac = OpTypeArray %int %c1\n%aptr = OpTypePointer Function %ac\n\
         %main = OpFunction %void None %fn\n\
         %entry = OpLabel\n%early = OpVariable %ptr Function\n%arr = OpVariable %aptr Function\n\
         %v = OpLoad %int %early\nOpStore %out %v\n\
         %elem = OpAccessChain %ptr %arr %c0\nOpStore %elem %c1\n\
         %w = OpLoad %int %elem\nOpStore %out %w\nOpReturn\nOpFunctionEnd\n"
        )
        .replace("\"main\"\n", "\"main\" %out\n"),
    );
    let text = after(m, &[Pass::SsaRewrite]);
    // The array reached through an access chain stays in memory; the scalar read before any
    // store reads an undefined value.
    assert!(text.contains("OpAccessChain"), "{text}");
    assert_eq!(text.matches("OpVariable").count(), 2, "{text}");
    assert!(text.contains("OpUndef %int"), "{text}");
    assert_eq!(
        text.matches("OpLoad").count(),
        1,
        "only the element's load stays: {text}"
    );
}

#[test]
fn dead_variables_go_unless_used_listed_in_an_interface_or_exported() {
    let m = ir_of(
        &format!(
            "{HEADER}%pptr = OpTypePointer Private %int\n%iptr = OpTypePointer Input %int\n\
         %used = OpVariable %pptr Private\n%unused = OpVariable %pptr Private\n\
         %listed = OpVariable %iptr Input\n%later = OpVariable %pptr Private\n\
         %main = OpFunction %void None %fn\n%e = OpLabel\nOpStore %used %c1\nOpStore %later %c0\n\
         OpReturn\nOpFunctionEnd\n"
        )
        .replace("\"main\"\n", "\"main\" %used %unused %listed %later\n"),
    );
    // Listed in the interface, `%unused` stays; nothing lists or uses a new one.
    let mut m = m;
    assert!(!Pass::EliminateDeadVariables.run(&mut m));
    let extra = ir_of(
        &format!(
            "{HEADER}%pptr = OpTypePointer Private %int\n%used = OpVariable %pptr Private\n\
         %unused = OpVariable %pptr Private\n%later = OpVariable %pptr Private\n\
         %main = OpFunction %void None %fn\n%e = OpLabel\nOpStore %used %c1\nOpStore %later %c0\n\
         OpReturn\nOpFunctionEnd\n"
        )
        .replace("\"main\"\n", "\"main\" %used %later\n"),
    );
    let text = after(extra, &[Pass::EliminateDeadVariables]);
    assert_eq!(text.matches("OpVariable").count(), 2, "{text}");
    // The stores still reach the two variables the interface lists.
    assert_eq!(text.matches("OpStore").count(), 2, "{text}");
}

#[test]
fn dead_code_elimination_keeps_extended_instructions_that_write() {
    // `Modf` writes the integral part through its pointer even when its result is unused;
    // OpenCL.std's `printf` prints.
    let m = ir_of(
        &format!(
            "{HEADER}%f32 = OpTypeFloat 32\n%fptr = OpTypePointer Function %f32\n\
         %half = OpConstant %f32 2.5\n%ext = OpExtInstImport \"GLSL.std.450\"\n\
         %pptr = OpTypePointer Private %f32\n%out = OpVariable %pptr Private\n\
         %main = OpFunction %void None %fn\n%entry = OpLabel\n%i = OpVariable %fptr Function\n\
         %frac = OpExtInst %f32 %ext Modf %half %i\n%whole = OpLoad %f32 %i\n\
         OpStore %out %whole\nOpReturn\nOpFunctionEnd\n"
        )
        .replace("\"main\"\n", "\"main\" %out\n"),
    );
    let text = after(m, &[Pass::EliminateDeadCode]);
    assert!(text.contains("Modf"), "{text}");
    let kernel = ir_of(
        "OpCapability Addresses\nOpCapability Kernel\nOpCapability Linkage\n\
         %cl = OpExtInstImport \"OpenCL.std\"\nOpMemoryModel Physical64 OpenCL\n\
         %void = OpTypeVoid\n%int = OpTypeInt 32 0\n%char = OpTypeInt 8 0\n\
         %n = OpConstant %int 3\n%arr = OpTypeArray %char %n\n\
         %cptr = OpTypePointer UniformConstant %arr\n%c0 = OpConstant %char 0\n\
         %text = OpConstantComposite %arr %c0 %c0 %c0\n\
         %fmt = OpVariable %cptr UniformConstant %text\n%fn = OpTypeFunction %void\n\
         %pchar = OpTypePointer UniformConstant %char\n%zero = OpConstant %int 0\n\
         %k = OpFunction %void None %fn\n%l = OpLabel\n\
         %p = OpInBoundsPtrAccessChain %pchar %fmt %zero %zero\n\
         %r = OpExtInst %int %cl printf %p\nOpReturn\nOpFunctionEnd\n",
    );
    let mut kernel = kernel;
    Pass::EliminateDeadCode.run(&mut kernel);
    let words = ir::serialize(&kernel).unwrap();
    let text = disassemble_to_string(&words, &DisassembleOptions::default()).unwrap();
    assert!(text.contains("printf"), "{text}");
}

/// Inputs the `opt` fuzz target found (`tests/fuzz-regressions/opt/`): every pass, alone and
/// in sequence, leaves a module that serializes and reads back (the first one stored a load's
/// value before the load, which SSA rewriting turned into a load that read itself).
#[test]
fn fuzz_regressions_optimize_into_modules_that_read_back() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-regressions/opt");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        let Ok(words) = spvkit::binary::words_from_bytes(&bytes) else {
            continue;
        };
        let Ok(module) = ir::deserialize(&words) else {
            continue;
        };
        seen += 1;
        let mut pipelines: Vec<Vec<Pass>> = Pass::ALL.iter().map(|&p| vec![p]).collect();
        pipelines.push(Pass::ALL.to_vec());
        pipelines.push(spvkit::opt::PERFORMANCE.to_vec());
        pipelines.push(spvkit::opt::LEGALIZE_HLSL.to_vec());
        for pipeline in pipelines {
            let mut m = module.clone();
            pipeline.iter().for_each(|p| {
                p.run(&mut m);
            });
            let out = ir::serialize(&m)
                .unwrap_or_else(|e| panic!("{}: {pipeline:?}: {e}", path.display()));
            ir::deserialize(&out)
                .unwrap_or_else(|e| panic!("{}: {pipeline:?}: {e}", path.display()));
        }
    }
    assert!(seen >= 1, "no regression input in {}", dir.display());
}

#[test]
fn inlining_wraps_early_returns_in_a_loop_that_runs_once_and_keeps_loop_returns_as_calls() {
    // pick(x): a local initialized to 5 on every call; if (x < 1) return 7; return x + local.
    // find(x): a return inside a loop, which cannot be a structured break: stays a call.
    // main calls both inside a loop and in its header-free body.
    let m = ir_of(
        &format!(
            "{HEADER}%c5 = OpConstant %int 5\n%c7 = OpConstant %int 7\n\
         %pptr = OpTypePointer Private %int\n%out = OpVariable %pptr Private\n\
         %fnii = OpTypeFunction %int %int\n\
         %pick = OpFunction %int None %fnii\n%px = OpFunctionParameter %int\n\
         %pe = OpLabel\n%local = OpVariable %ptr Function %c5\n\
         %small = OpSLessThan %bool %px %c1\nOpSelectionMerge %pm None\n\
         OpBranchConditional %small %pthen %pm\n\
         %pthen = OpLabel\nOpReturnValue %c7\n\
         %pm = OpLabel\n%lv = OpLoad %int %local\n%sum = OpIAdd %int %px %lv\n\
         OpStore %local %c0\nOpReturnValue %sum\nOpFunctionEnd\n\
         %find = OpFunction %int None %fnii\n%fx = OpFunctionParameter %int\n\
         %fe = OpLabel\nOpBranch %fh\n\
         %fh = OpLabel\nOpLoopMerge %fm %fc None\nOpBranch %fb\n\
         %fb = OpLabel\n%hit = OpIEqual %bool %fx %c1\nOpSelectionMerge %fj None\n\
         OpBranchConditional %hit %fr %fj\n\
         %fr = OpLabel\nOpReturnValue %fx\n\
         %fj = OpLabel\nOpBranch %fc\n\
         %fc = OpLabel\nOpBranchConditional %hit %fh %fm\n\
         %fm = OpLabel\nOpReturnValue %c0\nOpFunctionEnd\n\
         %main = OpFunction %void None %fn\n\
         %entry = OpLabel\n%i = OpVariable %ptr Function\nOpStore %i %c0\nOpBranch %header\n\
         %header = OpLabel\n%iv = OpLoad %int %i\n%go = OpSLessThan %bool %iv %c5\n\
         OpLoopMerge %merge %cont None\nOpBranchConditional %go %body %merge\n\
         %body = OpLabel\n%r = OpFunctionCall %int %pick %iv\n%q = OpFunctionCall %int %find %r\n\
         %acc = OpLoad %int %out\n%acc2 = OpIAdd %int %acc %q\nOpStore %out %acc2\nOpBranch %cont\n\
         %cont = OpLabel\n%n = OpIAdd %int %iv %c1\nOpStore %i %n\nOpBranch %header\n\
         %merge = OpLabel\nOpReturn\nOpFunctionEnd\n"
        )
        .replace("\"main\"\n", "\"main\" %out\n")
        .replace(
            "LocalSize 1 1 1\n",
            "LocalSize 1 1 1\nOpName %find \"find\"\nOpName %local \"local\"\n",
        ),
    );
    let text = after(m, &[Pass::InlineExhaustive]);
    let main = &text[text.rfind("OpFunction %void").expect("main stays")..];
    // `pick` is inlined (twice-returning: a one-trip loop, a phi for the value), `find` is not.
    assert_eq!(main.matches("OpFunctionCall").count(), 1, "{main}");
    assert!(main.contains("OpFunctionCall %int %find"), "{main}");
    assert_eq!(main.matches("OpLoopMerge").count(), 2, "{main}");
    assert!(main.contains("OpPhi %int %int_7 "), "{main}");
    // The local moved to main's entry block; its initializer is a store where the copy
    // starts, so each iteration sees 5 again.
    assert_eq!(
        main.matches("OpVariable %_ptr_Function_int Function\n")
            .count(),
        2
    );
    assert!(main.contains("OpStore %local_0 %int_5"), "{main}");
    // Then the callees nothing calls go.
    let text = after(ir_of(&text), &[Pass::EliminateDeadFunctions]);
    assert_eq!(text.matches("OpFunction ").count(), 2, "{text}");
}

#[test]
fn folding_computes_what_spirv_defines_and_leaves_undefined_results() {
    // Each result goes to its own Private variable so that nothing is dead.
    let cases = [
        ("%int", "OpIAdd %int %c7 %cm3", Some("%int 4")),
        ("%int", "OpIMul %int %cm3 %cm3", Some("%int 9")),
        ("%int", "OpSDiv %int %cm7 %c2", Some("%int -3")),
        ("%int", "OpSMod %int %cm7 %c2", Some("%int 1")),
        ("%int", "OpSRem %int %cm7 %c2", Some("%int -1")),
        (
            "%int",
            "OpShiftRightArithmetic %int %cm7 %c1",
            Some("%int -4"),
        ),
        (
            "%uint",
            "OpShiftRightLogical %uint %um1 %u28",
            Some("%uint 15"),
        ),
        ("%uint", "OpUConvert %uint %sm1", Some("%uint 65535")),
        ("%int", "OpSConvert %int %sm1", Some("%int -1")),
        ("%float", "OpFAdd %float %f1_5 %f2_25", Some("%float 3.75")),
        ("%float", "OpFDiv %float %f1_5 %f3", Some("%float 0.5")),
        ("%float", "OpConvertSToF %float %cm7", Some("%float -7")),
        ("%int", "OpConvertFToS %int %fm2_5", Some("%int -2")),
        ("%bool", "OpFOrdLessThan %bool %fnan %f3", Some("%false")),
        ("%bool", "OpFUnordLessThan %bool %fnan %f3", Some("%true")),
        // Undefined in SPIR-V: left for the program to do.
        ("%int", "OpSDiv %int %c7 %c0", None),
        ("%int", "OpShiftLeftLogical %int %c7 %c32", None),
        ("%int", "OpConvertFToS %int %fbig", None),
    ];
    let mut decls = String::new();
    let mut body = String::new();
    let mut iface = String::new();
    for (i, (ty, op, _)) in cases.iter().enumerate() {
        decls += &format!("%p{i} = OpTypePointer Private {ty}\n%o{i} = OpVariable %p{i} Private\n");
        body += &format!("%r{i} = {op}\nOpStore %o{i} %r{i}\n");
        iface += &format!(" %o{i}");
    }
    let text = format!(
        "OpCapability Shader\nOpCapability Int16\nOpMemoryModel Logical GLSL450\n\
         OpEntryPoint GLCompute %main \"main\"{iface}\nOpExecutionMode %main LocalSize 1 1 1\n\
         %void = OpTypeVoid\n%bool = OpTypeBool\n%int = OpTypeInt 32 1\n%uint = OpTypeInt 32 0\n\
         %short = OpTypeInt 16 1\n%float = OpTypeFloat 32\n%fn = OpTypeFunction %void\n\
         %c0 = OpConstant %int 0\n%c1 = OpConstant %int 1\n%c2 = OpConstant %int 2\n\
         %c7 = OpConstant %int 7\n%c32 = OpConstant %int 32\n%cm3 = OpConstant %int -3\n\
         %cm7 = OpConstant %int -7\n%um1 = OpConstant %uint 4294967295\n%u28 = OpConstant %uint 28\n\
         %sm1 = OpConstant %short -1\n%f1_5 = OpConstant %float 1.5\n%f2_25 = OpConstant %float 2.25\n\
         %f3 = OpConstant %float 3\n%fm2_5 = OpConstant %float -2.5\n%fbig = OpConstant %float 3e9\n\
         %fnan = OpConstant %float 0x1.8p+128\n\
         {decls}%main = OpFunction %void None %fn\n%entry = OpLabel\n{body}OpReturn\nOpFunctionEnd\n"
    );
    let out = after(
        ir_of(&text),
        &[Pass::SimplifyInstructions, Pass::EliminateDeadCode],
    );
    for (i, (_, op, want)) in cases.iter().enumerate() {
        let opcode = op.split_whitespace().next().unwrap();
        match want {
            // The store writes a constant whose declaration has the wanted value.
            Some(v) => {
                let line = out
                    .lines()
                    .filter(|l| l.trim_start().starts_with("OpStore"))
                    .nth(i)
                    .unwrap();
                let constant = line.split_whitespace().nth(2).unwrap();
                let decl = out
                    .lines()
                    .find(|l| l.trim_start().starts_with(&format!("{constant} = ")))
                    .unwrap_or_else(|| {
                        panic!("case {i} ({op}): {constant} is not a constant\n{out}")
                    });
                let rhs = decl.split_once(" = ").unwrap().1;
                let got = match rhs.split_whitespace().next() {
                    Some("OpConstantTrue") => "%true".to_string(),
                    Some("OpConstantFalse") => "%false".to_string(),
                    _ => rhs.trim_start_matches("OpConstant ").to_string(),
                };
                assert_eq!(&got, v, "case {i}: {op}\n{out}");
            }
            None => assert!(out.contains(opcode), "case {i}: {op} must stay\n{out}"),
        }
    }
}

#[test]
fn folding_computes_products_shuffles_and_inserts_of_constants_in_the_lowerings_order() {
    // M has columns (1, 2) and (3, 4); v = (5, 6). Each case's result is taken apart at
    // `path` and stored; after folding every store writes the constant `want`.
    let cases: [(&str, &str, &str, f32); 10] = [
        ("%float", "OpDot %float %v %c0", "", 17.0),
        ("%v2", "OpMatrixTimesVector %v2 %M %v", " 1", 34.0),
        ("%v2", "OpVectorTimesMatrix %v2 %v %M", " 1", 39.0),
        ("%m2", "OpMatrixTimesMatrix %m2 %M %M", " 1 1", 22.0),
        ("%m2", "OpMatrixTimesScalar %m2 %M %f2", " 1 0", 6.0),
        ("%m2", "OpOuterProduct %m2 %v %c0", " 1 1", 12.0),
        ("%m2", "OpTranspose %m2 %M", " 0 1", 3.0),
        ("%v2", "OpVectorShuffle %v2 %v %c0 3 0", " 0", 2.0),
        // The insert folds first, so the dot product of it folds too: 5 * 1 + 7 * 2.
        ("%float", "OpDot %float %ins %c0", "", 19.0),
        // RelaxedPrecision permits the exact result.
        ("%float", "OpFAdd %float %f2 %f5", "", 7.0),
    ];
    let mut decls = String::new();
    let mut body = String::from("%ins = OpCompositeInsert %v2 %f7 %v 1\n");
    let mut iface = String::new();
    let mut names = String::new();
    for (i, (_, op, path, _)) in cases.iter().enumerate() {
        decls += &format!("%o{i} = OpVariable %pf Private\n");
        names += &format!("OpName %o{i} \"o{i}\"\n");
        body += &format!("%r{i} = {op}\n");
        body += &if path.is_empty() {
            format!("OpStore %o{i} %r{i}\n")
        } else {
            format!("%x{i} = OpCompositeExtract %float %r{i}{path}\nOpStore %o{i} %x{i}\n")
        };
        iface += &format!(" %o{i}");
    }
    let text = format!(
        "OpCapability Shader\nOpMemoryModel Logical GLSL450\n\
         OpEntryPoint GLCompute %main \"main\"{iface} %nc\nOpExecutionMode %main LocalSize 1 1 1\n\
         {names}OpDecorate %r9 RelaxedPrecision\nOpDecorate %kept NoContraction\n\
         %void = OpTypeVoid\n%float = OpTypeFloat 32\n%v2 = OpTypeVector %float 2\n\
         %m2 = OpTypeMatrix %v2 2\n%fn = OpTypeFunction %void\n%pf = OpTypePointer Private %float\n\
         %f1 = OpConstant %float 1\n%f2 = OpConstant %float 2\n%f3 = OpConstant %float 3\n\
         %f4 = OpConstant %float 4\n%f5 = OpConstant %float 5\n%f6 = OpConstant %float 6\n\
         %f7 = OpConstant %float 7\n%c0 = OpConstantComposite %v2 %f1 %f2\n\
         %c1 = OpConstantComposite %v2 %f3 %f4\n%M = OpConstantComposite %m2 %c0 %c1\n\
         %v = OpConstantComposite %v2 %f5 %f6\n{decls}%nc = OpVariable %pf Private\n\
         %main = OpFunction %void None %fn\n%entry = OpLabel\n{body}\
         %kept = OpFAdd %float %f2 %f5\nOpStore %nc %kept\nOpReturn\nOpFunctionEnd\n"
    );
    let out = after(
        ir_of(&text),
        &[Pass::SimplifyInstructions, Pass::EliminateDeadCode],
    );
    for (i, (_, op, _, want)) in cases.iter().enumerate() {
        let line = out
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("OpStore %o{i} ")))
            .unwrap_or_else(|| panic!("no store of case {i}\n{out}"));
        let constant = line.split_whitespace().nth(2).unwrap();
        let decl = out
            .lines()
            .find(|l| {
                l.trim_start()
                    .starts_with(&format!("{constant} = OpConstant %float "))
            })
            .unwrap_or_else(|| panic!("case {i} ({op}) did not fold\n{out}"));
        let got: f32 = decl.split_whitespace().last().unwrap().parse().unwrap();
        assert_eq!(got, *want, "case {i}: {op}\n{out}");
    }
    // NoContraction keeps the op.
    assert!(out.contains("OpFAdd"), "{out}");
    for op in [
        "OpDot",
        "OpMatrixTimes",
        "OpVectorTimesMatrix",
        "OpOuterProduct",
        "OpTranspose",
        "OpVectorShuffle",
        "OpCompositeInsert",
    ] {
        assert!(!out.contains(op), "{op} stayed\n{out}");
    }
}

#[test]
fn a_continue_target_joins_a_plain_predecessor_which_becomes_the_continue_target() {
    let m = ir_of(&format!(
        "{HEADER}%main = OpFunction %void None %fn\n\
         %entry = OpLabel\n%x = OpVariable %ptr Function\nOpStore %x %c0\nOpBranch %header\n\
         %header = OpLabel\n%i = OpLoad %int %x\n%go = OpSLessThan %bool %i %c1\n\
         OpLoopMerge %merge %cont None\nOpBranchConditional %go %body %merge\n\
         %body = OpLabel\n%j = OpLoad %int %x\nOpBranch %cont\n\
         %cont = OpLabel\n%n = OpIAdd %int %j %c1\nOpStore %x %n\nOpBranch %header\n\
         %merge = OpLabel\nOpReturn\nOpFunctionEnd\n"
    ));
    let text = after(m, &[Pass::MergeBlocks]);
    assert_eq!(text.matches("OpLabel").count(), 4, "{text}");
    // The loop continues at the block that held the body, which now ends in the back edge.
    let continue_target = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("OpLoopMerge "))
        .and_then(|rest| rest.split_whitespace().nth(1))
        .unwrap()
        .to_string();
    let block: Vec<&str> = text
        .lines()
        .skip_while(|l| l.trim() != format!("{continue_target} = OpLabel"))
        .take(5)
        .collect();
    assert!(block.iter().any(|l| l.contains("OpLoad")), "{text}");
    assert!(block.iter().any(|l| l.contains("OpIAdd")), "{text}");
    // A continue target whose predecessor is a selection's merge block stays apart.
    let text = after(looped_diamond(), &[Pass::MergeBlocks]);
    assert_eq!(text.matches("OpLabel").count(), 8, "{text}");
}

#[test]
fn a_phi_of_one_value_is_that_value_and_an_if_with_empty_sides_goes() {
    let m = ir_of(&format!(
        "{HEADER}%main = OpFunction %void None %fn\n\
         %entry = OpLabel\n%x = OpVariable %ptr Function\n%v = OpLoad %int %x\n\
         %c = OpSLessThan %bool %v %c1\nOpSelectionMerge %join None\n\
         OpBranchConditional %c %then %else\n\
         %then = OpLabel\nOpBranch %join\n%else = OpLabel\nOpBranch %join\n\
         %join = OpLabel\n%p = OpPhi %int %v %then %v %else\n%n = OpIAdd %int %p %c1\n\
         OpStore %x %n\nOpReturn\nOpFunctionEnd\n"
    ));
    let text = after(
        m,
        &[
            Pass::SimplifyInstructions,
            Pass::EliminateDeadBranches,
            Pass::MergeBlocks,
            Pass::EliminateDeadCode,
        ],
    );
    assert!(!text.contains("OpPhi"), "{text}");
    assert!(!text.contains("OpSelectionMerge"), "{text}");
    assert_eq!(text.matches("OpLabel").count(), 1, "{text}");
    // A side that does something keeps the selection.
    let m = ir_of(&format!(
        "{HEADER}%main = OpFunction %void None %fn\n\
         %entry = OpLabel\n%x = OpVariable %ptr Function\n%v = OpLoad %int %x\n\
         %c = OpSLessThan %bool %v %c1\nOpSelectionMerge %join None\n\
         OpBranchConditional %c %then %join\n\
         %then = OpLabel\nOpStore %x %c0\nOpBranch %join\n\
         %join = OpLabel\nOpReturn\nOpFunctionEnd\n"
    ));
    let text = after(m, &[Pass::EliminateDeadBranches, Pass::MergeBlocks]);
    assert!(text.contains("OpSelectionMerge"), "{text}");
}

#[test]
fn local_loads_after_stores_in_a_block_are_the_stored_values_and_write_only_locals_go() {
    let m = ir_of(&format!(
        "{HEADER}%c4 = OpConstant %int 4\n%arr = OpTypeArray %int %c4\n\
         %parr = OpTypePointer Function %arr\n%pp = OpTypePointer Private %int\n%out = OpVariable %pp Private\n\
         %main = OpFunction %void None %fn\n%entry = OpLabel\n\
         %a = OpVariable %parr Function\n%w = OpVariable %parr Function\n\
         %i = OpLoad %int %out\n%j = OpIAdd %int %i %c1\n\
         %ai = OpAccessChain %ptr %a %i\n%aj = OpAccessChain %ptr %a %j\n\
         OpStore %ai %c0\n%x = OpLoad %int %ai\n\
         OpStore %out %x\n\
         OpStore %aj %c1\n%y = OpLoad %int %ai\n\
         %z = OpIAdd %int %y %x\nOpStore %out %z\n\
         %wi = OpAccessChain %ptr %w %i\nOpStore %wi %z\n\
         OpReturn\nOpFunctionEnd\n"
    )
    .replace("\"main\"\n", "\"main\" %out\n")
    .replace("LocalSize 1 1 1\n", "LocalSize 1 1 1\nOpName %out \"out\"\nOpName %y \"y\"\n"));
    let text = after(
        m,
        &[
            Pass::EliminateLocalSingleBlock,
            Pass::EliminateDeadCode,
            Pass::EliminateLocalSingleBlock,
        ],
    );
    // The load right after the store is the stored constant: `out = 0` first.
    let stores: Vec<&str> = text
        .lines()
        .filter(|l| l.trim_start().starts_with("OpStore %out"))
        .collect();
    assert_eq!(stores.len(), 2, "{text}");
    assert!(stores[0].ends_with("%int_0"), "{text}");
    // After a store through another chain of the array, a[i] is read again.
    assert!(text.contains("%y = OpLoad %int"), "{text}");
    // The write-only local goes with its chain and store; the read one stays.
    assert_eq!(
        text.matches("OpVariable %_ptr_Function").count(),
        1,
        "{text}"
    );
}

#[test]
fn simplification_reads_extracts_through_inserts_and_constructs() {
    let m = ir_of(
        &format!(
            "{HEADER}%v2 = OpTypeVector %int 2\n%pptr = OpTypePointer Private %int\n\
         %out = OpVariable %pptr Private\n%in = OpVariable %pptr Private\n\
         %main = OpFunction %void None %fn\n%entry = OpLabel\n%x = OpLoad %int %in\n\
         %v = OpCompositeConstruct %v2 %x %c1\n%w = OpCompositeInsert %v2 %c0 %v 1\n\
         %a = OpCompositeExtract %int %w 0\n%b = OpCompositeExtract %int %w 1\n\
         %s = OpIAdd %int %a %b\n%t = OpIMul %int %s %c1\nOpStore %out %t\n\
         OpReturn\nOpFunctionEnd\n"
        )
        .replace("\"main\"\n", "\"main\" %out %in\n")
        .replace(
            "LocalSize 1 1 1\n",
            "LocalSize 1 1 1\nOpName %out \"out\"\nOpName %x \"x\"\n",
        ),
    );
    let text = after(m, &[Pass::SimplifyInstructions, Pass::EliminateDeadCode]);
    // x + 0 * ... : everything but the load folds away; the store writes the load.
    assert!(!text.contains("OpComposite"), "{text}");
    assert!(
        !text.contains("OpIAdd") && !text.contains("OpIMul"),
        "{text}"
    );
    assert!(text.contains("OpStore %out %x"), "{text}");
}

#[test]
fn dead_branches_and_block_merging_leave_straight_line_code_for_constant_conditions() {
    // if (true) out = 1; else out = 7;  switch (1) { case 0: out += 7; break;
    // case 1: if (in) break; out += 1; break; }  do { } while (false);
    let m = ir_of(
        &format!(
            "{HEADER}%c7 = OpConstant %int 7\n%true = OpConstantTrue %bool\n\
         %false = OpConstantFalse %bool\n%pptr = OpTypePointer Private %int\n\
         %bptr = OpTypePointer Private %bool\n%in = OpVariable %bptr Private\n\
         %out = OpVariable %pptr Private\n\
         %main = OpFunction %void None %fn\n%entry = OpLabel\n\
         OpSelectionMerge %m1 None\nOpBranchConditional %true %then %else\n\
         %then = OpLabel\nOpStore %out %c1\nOpBranch %m1\n\
         %else = OpLabel\nOpStore %out %c7\nOpBranch %m1\n\
         %m1 = OpLabel\nOpSelectionMerge %m2 None\nOpSwitch %c1 %m2 0 %case0 1 %case1\n\
         %case0 = OpLabel\n%a = OpLoad %int %out\n%a7 = OpIAdd %int %a %c7\nOpStore %out %a7\n\
         OpBranch %m2\n\
         %case1 = OpLabel\n%b = OpLoad %bool %in\nOpSelectionMerge %inner None\n\
         OpBranchConditional %b %m2 %inner\n\
         %inner = OpLabel\n%x = OpLoad %int %out\n%x1 = OpIAdd %int %x %c1\nOpStore %out %x1\n\
         OpBranch %m2\n\
         %m2 = OpLabel\nOpBranch %lh\n\
         %lh = OpLabel\nOpLoopMerge %lm %lc None\nOpBranch %lb\n\
         %lb = OpLabel\nOpBranch %lc\n\
         %lc = OpLabel\nOpBranchConditional %false %lh %lm\n\
         %lm = OpLabel\nOpReturn\nOpFunctionEnd\n"
        )
        .replace("\"main\"\n", "\"main\" %out %in\n"),
    );
    let text = after(m, &[Pass::EliminateDeadBranches, Pass::MergeBlocks]);
    // The else side and case 0 are gone (the constant 7 is only declared); the if is
    // straight-line code.
    assert_eq!(text.matches("%int_7").count(), 1, "{text}");
    // The switch, whose case breaks out of a nested selection, stays a switch with only a
    // default; the loop keeps its one back edge.
    assert!(text.contains("OpSwitch %int_1 "), "{text}");
    assert_eq!(text.matches("OpSelectionMerge").count(), 2, "{text}");
    assert_eq!(text.matches("OpLoopMerge").count(), 1, "{text}");
    // entry+then+m1 merged; case1; inner; m2 (a merge block); lh+lb; lc; lm.
    assert_eq!(text.matches("OpLabel").count(), 7, "{text}");
}

#[test]
fn redundancy_elimination_reuses_dominating_values_but_not_loads_or_sibling_values() {
    let m = ir_of(
        &format!(
            "{HEADER}%pptr = OpTypePointer Private %int\n%bptr = OpTypePointer Private %bool\n\
         %in = OpVariable %pptr Private\n%out = OpVariable %pptr Private\n\
         %flag = OpVariable %bptr Private\n\
         %main = OpFunction %void None %fn\n%entry = OpLabel\n\
         %x = OpLoad %int %in\n%a = OpIAdd %int %x %c1\n%y = OpLoad %int %in\n\
         %b = OpIAdd %int %y %c1\n%f = OpLoad %bool %flag\n\
         OpSelectionMerge %join None\nOpBranchConditional %f %then %else\n\
         %then = OpLabel\n%c = OpIAdd %int %x %c1\n%d = OpIMul %int %c %c1\nOpStore %out %d\n\
         OpBranch %join\n\
         %else = OpLabel\n%e = OpIMul %int %a %c1\nOpStore %out %e\nOpBranch %join\n\
         %join = OpLabel\nOpStore %out %a\nOpStore %out %b\nOpReturn\nOpFunctionEnd\n"
        )
        .replace("\"main\"\n", "\"main\" %in %out %flag\n"),
    );
    let text = after(m, &[Pass::RedundancyElimination, Pass::EliminateDeadCode]);
    // `c` is `a`; `b` adds to a second load (memory may have changed): it stays. The two
    // `* 1` in sibling blocks both stay (neither dominates the other); the loads stay.
    assert_eq!(text.matches("OpIAdd").count(), 2, "{text}");
    assert_eq!(text.matches("OpIMul").count(), 2, "{text}");
    assert_eq!(text.matches("OpLoad %int").count(), 2, "{text}");
}

/// A pixel shader as DXC writes it before legalization (`-fcgl`): a `static` alias of a
/// texture (a Private variable), a texture local, a texture parameter (by pointer) and return
/// value, and a struct holding a texture and a sampler passed to a function.
const DXC_STYLE_RESOURCES: &str = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n\
    OpEntryPoint Fragment %main \"main\" %in_uv %out_color %g_tex %g_samp %s_alias\n\
    OpExecutionMode %main OriginUpperLeft\n\
    OpName %g_tex \"g_tex\"\nOpName %g_samp \"g_samp\"\n\
    OpDecorate %in_uv Location 0\nOpDecorate %out_color Location 0\n\
    OpDecorate %g_tex DescriptorSet 0\nOpDecorate %g_tex Binding 0\n\
    OpDecorate %g_samp DescriptorSet 0\nOpDecorate %g_samp Binding 1\n\
    %void = OpTypeVoid\n%float = OpTypeFloat 32\n%v2 = OpTypeVector %float 2\n\
    %v4 = OpTypeVector %float 4\n%int = OpTypeInt 32 1\n%c0 = OpConstant %int 0\n\
    %c1 = OpConstant %int 1\n%img = OpTypeImage %float 2D 0 0 0 1 Unknown\n\
    %smp = OpTypeSampler\n%simg = OpTypeSampledImage %img\n%Bundle = OpTypeStruct %img %smp\n\
    %p_uc_img = OpTypePointer UniformConstant %img\n%p_uc_smp = OpTypePointer UniformConstant %smp\n\
    %p_priv_img = OpTypePointer Private %img\n%p_fn_img = OpTypePointer Function %img\n\
    %p_fn_smp = OpTypePointer Function %smp\n%p_fn_bundle = OpTypePointer Function %Bundle\n\
    %p_in_v2 = OpTypePointer Input %v2\n%p_out_v4 = OpTypePointer Output %v4\n\
    %p_fn_v2 = OpTypePointer Function %v2\n\
    %g_tex = OpVariable %p_uc_img UniformConstant\n%g_samp = OpVariable %p_uc_smp UniformConstant\n\
    %s_alias = OpVariable %p_priv_img Private\n%in_uv = OpVariable %p_in_v2 Input\n\
    %out_color = OpVariable %p_out_v4 Output\n\
    %fn_void = OpTypeFunction %void\n%fn_pick = OpTypeFunction %img %p_fn_img\n\
    %fn_sample = OpTypeFunction %v4 %p_fn_bundle %p_fn_v2\n\
    %pick = OpFunction %img None %fn_pick\n%t = OpFunctionParameter %p_fn_img\n\
    %pick_entry = OpLabel\n%tv = OpLoad %img %t\nOpReturnValue %tv\nOpFunctionEnd\n\
    %sample = OpFunction %v4 None %fn_sample\n%b = OpFunctionParameter %p_fn_bundle\n\
    %uvp = OpFunctionParameter %p_fn_v2\n%sample_entry = OpLabel\n\
    %bt = OpAccessChain %p_fn_img %b %c0\n%bs = OpAccessChain %p_fn_smp %b %c1\n\
    %ti = OpLoad %img %bt\n%si = OpLoad %smp %bs\n%uvv = OpLoad %v2 %uvp\n\
    %comb = OpSampledImage %simg %ti %si\n%r = OpImageSampleImplicitLod %v4 %comb %uvv\n\
    OpReturnValue %r\nOpFunctionEnd\n\
    %main = OpFunction %void None %fn_void\n%main_entry = OpLabel\n\
    %local = OpVariable %p_fn_img Function\n%param = OpVariable %p_fn_img Function\n\
    %bundle = OpVariable %p_fn_bundle Function\n%uvarg = OpVariable %p_fn_v2 Function\n\
    %g = OpLoad %img %g_tex\nOpStore %s_alias %g\n\
    %a = OpLoad %img %s_alias\nOpStore %local %a\n\
    %lv = OpLoad %img %local\nOpStore %param %lv\n\
    %picked = OpFunctionCall %img %pick %param\n\
    %bt_m = OpAccessChain %p_fn_img %bundle %c0\nOpStore %bt_m %picked\n\
    %gs = OpLoad %smp %g_samp\n%bs_m = OpAccessChain %p_fn_smp %bundle %c1\nOpStore %bs_m %gs\n\
    %uv = OpLoad %v2 %in_uv\nOpStore %uvarg %uv\n\
    %color = OpFunctionCall %v4 %sample %bundle %uvarg\nOpStore %out_color %color\n\
    OpReturn\nOpFunctionEnd\n";

#[test]
fn legalization_makes_resources_in_locals_params_returns_structs_and_aliases_direct() {
    let m = ir_of(DXC_STYLE_RESOURCES);
    // Vulkan keeps images and samplers out of structs and other storage classes: the input
    // is illegal.
    let before = spirv_val(&m).expect_err("the DXC-style input is not legal Vulkan SPIR-V");
    assert!(
        before.contains("opaque") || before.contains("UniformConstant"),
        "{before}"
    );
    // hlsl2spirv legalizes at every level when the module needs it, as DXC decides.
    assert!(spvkit::opt::needs_legalization(&m));
    let mut legal = m.clone();
    for pass in spvkit::opt::LEGALIZE_HLSL {
        pass.run(&mut legal);
    }
    assert!(!spvkit::opt::needs_legalization(&legal));
    assert!(!spvkit::opt::needs_legalization(&looped_diamond()));
    let text = after(m, spvkit::opt::LEGALIZE_HLSL);
    assert!(!text.contains("OpFunctionCall"), "{text}");
    assert!(!text.contains("Private"), "{text}");
    assert!(!text.contains("OpVariable %_ptr_Function"), "{text}");
    // The sampled image combines loads of the globals themselves.
    let load_of = |global: &str| {
        text.lines()
            .find(|l| l.contains("OpLoad") && l.trim_end().ends_with(&format!(" %{global}")))
            .and_then(|l| l.split_whitespace().next().map(str::to_string))
            .unwrap_or_else(|| panic!("no load of %{global}\n{text}"))
    };
    let (tex, samp) = (load_of("g_tex"), load_of("g_samp"));
    assert!(
        text.lines()
            .any(|l| l.contains("OpSampledImage") && l.ends_with(&format!(" {tex} {samp}"))),
        "{text}"
    );
}

/// A texel `Offset` of a sample that folding makes constant becomes a `ConstOffset` (the form
/// Vulkan takes outside gathers); a module with a variable one needs legalization, one with
/// only gathers' variable offsets does not.
#[test]
fn constant_offsets_of_samples_become_const_offsets() {
    let module = |offset: &str| {
        ir_of(&format!(
            "OpCapability Shader\nOpCapability ImageGatherExtended\nOpMemoryModel Logical GLSL450\n\
             OpEntryPoint Fragment %main \"main\" %out %in %t\nOpExecutionMode %main OriginUpperLeft\n\
             OpDecorate %t DescriptorSet 0\nOpDecorate %t Binding 0\nOpDecorate %out Location 0\n\
             OpDecorate %in Location 0\nOpDecorate %in Flat\n\
             %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%float = OpTypeFloat 32\n\
             %int = OpTypeInt 32 1\n%v2int = OpTypeVector %int 2\n%v2 = OpTypeVector %float 2\n\
             %v4 = OpTypeVector %float 4\n%img = OpTypeImage %float 2D 0 0 0 1 Unknown\n\
             %simg = OpTypeSampledImage %img\n%pimg = OpTypePointer UniformConstant %simg\n\
             %t = OpVariable %pimg UniformConstant\n%pout = OpTypePointer Output %v4\n\
             %out = OpVariable %pout Output\n%pin = OpTypePointer Input %v2int\n\
             %in = OpVariable %pin Input\n%c1 = OpConstant %int 1\n%c2 = OpConstant %int 2\n\
             %f0 = OpConstant %float 0\n%uv = OpConstantComposite %v2 %f0 %f0\n\
             %main = OpFunction %void None %fn\n%entry = OpLabel\n%s = OpLoad %simg %t\n\
             %var = OpLoad %v2int %in\n%sum = OpIAdd %int %c1 %c1\n\
             %folded = OpCompositeConstruct %v2int %sum %c2\n\
             %r = OpImageSampleExplicitLod %v4 %s %uv Lod|Offset %f0 {offset}\n\
             %g = OpImageGather %v4 %s %uv %c1 Offset %var\n\
             %a = OpFAdd %v4 %r %g\nOpStore %out %a\nOpReturn\nOpFunctionEnd\n"
        ))
    };
    assert!(spvkit::opt::needs_legalization(&module("%folded")));
    assert!(spvkit::opt::needs_legalization(&module("%var")));
    let mut m = module("%folded");
    Pass::SimplifyInstructions.run(&mut m);
    assert!(!spvkit::opt::needs_legalization(&m));
    let text = after(m, &[Pass::EliminateDeadCode]);
    assert!(
        text.lines()
            .any(|l| l.contains("OpImageSampleExplicitLod") && l.contains("Lod|ConstOffset")),
        "{text}"
    );
    // The gather keeps its variable offset, which Vulkan allows.
    assert!(
        text.lines()
            .any(|l| l.contains("OpImageGather") && l.contains(" Offset %")),
        "{text}"
    );
    // A variable offset stays one.
    let mut m = module("%var");
    Pass::SimplifyInstructions.run(&mut m);
    assert!(spvkit::opt::needs_legalization(&m));
}

#[test]
fn def_use_chains_list_every_user_in_layout_order() {
    let m = looped_diamond();
    let f = m.functions.iter().next().unwrap().1;
    let uses = DefUse::new(&m, f);
    // Blocks: entry, header, body, then, else, join, cont, merge.
    let header = &f.blocks[block(1)];
    let (x, i, go) = (f.blocks[block(0)].ops[0], header.ops[0], header.ops[1]);
    let body = &f.blocks[block(2)];
    let (p, cont) = (body.ops[0], &f.blocks[block(6)]);
    let (n, store) = (cont.ops[0], cont.ops[1]);
    // %x: loaded in the header, stored in the continue target.
    assert_eq!(uses.users(ir::Value::Op(x)), [User::Op(i), User::Op(store)]);
    // %i: the compare in the header, the compare in the body, the increment.
    assert_eq!(
        uses.users(ir::Value::Op(i)),
        [User::Op(go), User::Op(p), User::Op(n)]
    );
    // Conditions are used by their blocks' terminators.
    assert_eq!(uses.users(ir::Value::Op(go)), [User::Terminator(block(1))]);
    assert_eq!(uses.users(ir::Value::Op(p)), [User::Terminator(block(2))]);
    assert_eq!(uses.users(ir::Value::Op(n)), [User::Op(store)]);
    assert!(uses.users(ir::Value::Op(store)).is_empty());
    // Module-level values are no function's to list.
    assert!(uses.users(ir::Value::Global(Handle::new(0))).is_empty());
}

/// A compute shader copying a uniform array (rebuilt element by element into a layout-free
/// array, as HLSL front ends copy between layouts) and a Private array into locals, and a
/// local into another, each read at a run-time index.
const ARRAY_COPIES: &str = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n\
    OpEntryPoint GLCompute %main \"main\" %ubo %out %priv\n\
    OpExecutionMode %main LocalSize 1 1 1\n\
    OpName %copy \"copy\"\nOpName %x \"x\"\nOpName %again \"again\"\nOpName %y \"y\"\n\
    OpName %twice \"twice\"\nOpName %z \"z\"\nOpName %later \"later\"\nOpName %w \"w\"\n\
    OpDecorate %uarr ArrayStride 16\nOpMemberDecorate %Ubo 0 Offset 0\n\
    OpMemberDecorate %Ubo 1 Offset 64\nOpDecorate %Ubo Block\n\
    OpDecorate %ubo DescriptorSet 0\nOpDecorate %ubo Binding 0\n\
    OpDecorate %oarr ArrayStride 4\nOpMemberDecorate %Out 0 Offset 0\nOpDecorate %Out Block\n\
    OpDecorate %out DescriptorSet 0\nOpDecorate %out Binding 1\n\
    %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%float = OpTypeFloat 32\n\
    %int = OpTypeInt 32 1\n%c0 = OpConstant %int 0\n%c1 = OpConstant %int 1\n\
    %c2 = OpConstant %int 2\n%c3 = OpConstant %int 3\n%c4 = OpConstant %int 4\n\
    %f1 = OpConstant %float 1\n%f2 = OpConstant %float 2\n\
    %uarr = OpTypeArray %float %c4\n%Ubo = OpTypeStruct %uarr %int\n\
    %pubo = OpTypePointer Uniform %Ubo\n%ubo = OpVariable %pubo Uniform\n\
    %puarr = OpTypePointer Uniform %uarr\n%puint = OpTypePointer Uniform %int\n\
    %arr = OpTypeArray %float %c4\n%parr = OpTypePointer Function %arr\n\
    %pf = OpTypePointer Function %float\n%pparr = OpTypePointer Private %arr\n\
    %priv = OpVariable %pparr Private\n\
    %oarr = OpTypeArray %float %c4\n%Out = OpTypeStruct %oarr\n\
    %pout = OpTypePointer StorageBuffer %Out\n%out = OpVariable %pout StorageBuffer\n\
    %pof = OpTypePointer StorageBuffer %float\n\
    %ones = OpConstantComposite %arr %f1 %f1 %f1 %f1\n\
    %twos = OpConstantComposite %arr %f2 %f2 %f2 %f2\n\
    %main = OpFunction %void None %fn\n%entry = OpLabel\n\
    %copy = OpVariable %parr Function\n%again = OpVariable %parr Function\n\
    %twice = OpVariable %parr Function\n%later = OpVariable %parr Function\n\
    %pi = OpAccessChain %puint %ubo %c1\n%i = OpLoad %int %pi\n\
    %pa = OpAccessChain %puarr %ubo %c0\n%la = OpLoad %uarr %pa\n\
    %e0 = OpCompositeExtract %float %la 0\n%e1 = OpCompositeExtract %float %la 1\n\
    %e2 = OpCompositeExtract %float %la 2\n%e3 = OpCompositeExtract %float %la 3\n\
    %ca = OpCompositeConstruct %arr %e0 %e1 %e2 %e3\nOpStore %copy %ca\n\
    %cx = OpAccessChain %pf %copy %i\n%x = OpLoad %float %cx\n\
    %lc = OpLoad %arr %copy\nOpStore %again %lc\n\
    %cy = OpAccessChain %pf %again %i\n%y = OpLoad %float %cy\n\
    OpStore %priv %ones\n%lp = OpLoad %arr %priv\nOpStore %twice %lp\nOpStore %priv %twos\n\
    %cz = OpAccessChain %pf %twice %i\n%z = OpLoad %float %cz\n\
    %lq = OpLoad %arr %copy\nOpStore %later %lq\n\
    %cw = OpAccessChain %pf %later %i\n%w = OpLoad %float %cw\nOpStore %later %ones\n\
    %o0 = OpAccessChain %pof %out %c0 %c0\nOpStore %o0 %x\n\
    %o1 = OpAccessChain %pof %out %c0 %c1\nOpStore %o1 %y\n\
    %o2 = OpAccessChain %pof %out %c0 %c2\nOpStore %o2 %z\n\
    %o3 = OpAccessChain %pof %out %c0 %c3\nOpStore %o3 %w\n\
    OpReturn\nOpFunctionEnd\n";

/// The line defining the pointer `%value = OpLoad` reads.
fn pointer_loaded(text: &str, value: &str) -> String {
    let load = text
        .lines()
        .find(|l| l.trim_start().starts_with(&format!("%{value} = OpLoad")))
        .unwrap_or_else(|| panic!("no load %{value}\n{text}"));
    let pointer = load.split_whitespace().last().unwrap();
    text.lines()
        .find(|l| l.trim_start().starts_with(&format!("{pointer} = ")))
        .unwrap_or_else(|| panic!("no definition of {pointer}\n{text}"))
        .trim()
        .to_string()
}

#[test]
fn copy_propagation_reads_arrays_from_originals_nothing_changes() {
    let m = ir_of(ARRAY_COPIES);
    let text = after(m.clone(), &[Pass::CopyPropagateArrays]);
    // The rebuilt copy of the uniform array is read from the uniform block.
    let x = pointer_loaded(&text, "x");
    assert!(
        x.contains("OpAccessChain %_ptr_Uniform_float"),
        "{x}\n{text}"
    );
    // A copy of that copy too (the first copy is written once, before it is copied; one
    // sweep reads it from the first copy, the next from the uniform block).
    let y = pointer_loaded(&text, "y");
    assert!(
        y.contains("OpAccessChain %_ptr_Uniform_float"),
        "{y}\n{text}"
    );
    // A copy of a Private array stored again afterwards keeps its own memory, as does a
    // local written a second time.
    assert!(pointer_loaded(&text, "z").contains("%twice"), "{text}");
    assert!(pointer_loaded(&text, "w").contains("%later"), "{text}");
    // With the write-only copies gone, the recipe leaves only the two that must stay.
    let text = after(
        m,
        &[
            Pass::CopyPropagateArrays,
            Pass::EliminateLocalSingleBlock,
            Pass::EliminateDeadCode,
            Pass::EliminateLocalSingleBlock,
        ],
    );
    assert_eq!(
        text.matches("OpVariable %_ptr_Function").count(),
        2,
        "{text}"
    );
}
