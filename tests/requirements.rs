//! Module requirements (minimal version, capabilities, extensions) on the corpus and on small
//! hand-written modules, with spirv-val as the oracle for `update_vce`'s output.

#[path = "support/corpus.rs"]
mod corpus;

use spvkit::binary::{decode_module, words_from_bytes};
use spvkit::grammar::{Capability, Version};
use spvkit::opt::{optimize, OptOptions};
use spvkit::requirements::{closure, declared, module_requirements, update_vce};
use std::process::Command;

fn assemble(text: &str, env: &str) -> Vec<u32> {
    let dir =
        std::env::temp_dir().join(format!("spvkit-req-{}-{}", std::process::id(), text.len()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("m.spvasm"), text).unwrap();
    let st = Command::new("spirv-as")
        .args(["--target-env", env, "-o"])
        .arg(dir.join("m.spv"))
        .arg(dir.join("m.spvasm"))
        .status()
        .expect("spirv-as is needed (bash scripts/setup.sh)");
    assert!(st.success());
    let bytes = std::fs::read(dir.join("m.spv")).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    words_from_bytes(&bytes).unwrap().into_owned()
}

#[test]
fn every_valid_corpus_module_declares_what_it_needs_and_update_vce_stays_valid() {
    let modules = corpus::build_all();
    let dir = std::env::temp_dir().join(format!("spvkit-vce-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut checked = 0;
    let mut failures = Vec::new();
    for m in modules.iter().filter(|m| m.valid) {
        let words = m.words();
        let req = module_requirements(&words).unwrap();
        let (h, insts) = decode_module(&words).unwrap();
        let d = declared(&h, &insts);
        let have = closure(&d.capabilities);
        for c in &req.capabilities {
            if !have.contains(c) {
                failures.push(format!(
                    "{}: needs {c} but declares {:?}",
                    m.name, d.capabilities
                ));
            }
        }
        for e in &req.extensions {
            if !d.extensions.contains(e) {
                failures.push(format!(
                    "{}: needs {e} but declares {:?}",
                    m.name, d.extensions
                ));
            }
        }
        if let Some(v) = d.version {
            if req.min_version > v {
                failures.push(format!(
                    "{}: needs version {} but is {v}",
                    m.name, req.min_version
                ));
            }
        }
        let updated = update_vce(&words).unwrap();
        // `spvkit opt --update-vce` goes through the IR; it must settle on the same triple.
        let via_ir = optimize(
            &words,
            &OptOptions {
                update_vce: true,
                ..Default::default()
            },
        )
        .unwrap();
        let vce = |w: &[u32]| {
            let (h, insts) = decode_module(w).unwrap();
            declared(&h, &insts)
        };
        if vce(&via_ir) != vce(&updated) {
            failures.push(format!(
                "{}: the IR path gives {:?}, the word path {:?}",
                m.name,
                vce(&via_ir),
                vce(&updated)
            ));
        }
        let path = dir.join(format!("{checked}.spv"));
        std::fs::write(
            &path,
            updated
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect::<Vec<u8>>(),
        )
        .unwrap();
        let copy = corpus::Module { path, ..m.clone() };
        if let Err(e) = corpus::spirv_val(&copy) {
            failures.push(format!("{}: update_vce output is invalid: {e}", m.name));
        }
        checked += 1;
    }
    std::fs::remove_dir_all(&dir).ok();
    let failing: std::collections::BTreeSet<&str> = failures
        .iter()
        .filter_map(|f| f.split(':').next())
        .collect();
    eprintln!(
        "requirements: {} of {checked} valid modules fail:\n{}",
        failing.len(),
        failures.join("\n")
    );
    let passing = checked - failing.len();
    assert!(
        passing == checked,
        "only {passing} of {checked} pass:\n{}",
        failures.join("\n")
    );
    assert!(checked > 200);
}

const HEADER: &str = "OpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n";

#[test]
fn widths_and_scope_constants_need_capabilities() {
    let text = format!(
        "OpCapability Shader\nOpCapability Int64\nOpCapability Float64\nOpCapability VulkanMemoryModel\nOpCapability Geometry\n{HEADER}\
         %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%uint = OpTypeInt 32 0\n%long = OpTypeInt 64 1\n%double = OpTypeFloat 64\n\
         %queue_family = OpConstant %uint 5\n%sem = OpConstant %uint 0x108\n\
         %main = OpFunction %void None %fn\n%l = OpLabel\nOpControlBarrier %queue_family %queue_family %sem\nOpReturn\nOpFunctionEnd\n"
    );
    let words = assemble(&text, "spv1.5");
    let req = module_requirements(&words).unwrap();
    for c in [
        Capability::Shader,
        Capability::Int64,
        Capability::Float64,
        Capability::VulkanMemoryModel,
    ] {
        assert!(
            req.capabilities.contains(&c),
            "{c} missing from {:?}",
            req.capabilities
        );
    }
    // Geometry is declared but not needed; Matrix is implied by Shader, so not listed.
    assert!(!req.capabilities.contains(&Capability::Geometry));
    assert!(!req.capabilities.contains(&Capability::Matrix));
    // VulkanMemoryModel is core in 1.5.
    assert_eq!(req.min_version, Version(1, 5));
    assert!(req.extensions.is_empty(), "{:?}", req.extensions);
}

#[test]
fn update_vce_drops_unneeded_capabilities_and_lowers_the_version() {
    let text = format!(
        "OpCapability Shader\nOpCapability Int64\nOpCapability Geometry\n{HEADER}\
         %void = OpTypeVoid\n%fn = OpTypeFunction %void\n\
         %main = OpFunction %void None %fn\n%l = OpLabel\nOpReturn\nOpFunctionEnd\n"
    );
    let words = assemble(&text, "spv1.3");
    let out = update_vce(&words).unwrap();
    assert_eq!(out[1], Version(1, 0).word());
    let (h, insts) = decode_module(&out).unwrap();
    let d = declared(&h, &insts);
    assert_eq!(
        d.capabilities.into_iter().collect::<Vec<_>>(),
        vec![Capability::Shader]
    );
    assert_eq!(insts.len(), words_len_without_caps(&words) + 1);
}

fn words_len_without_caps(words: &[u32]) -> usize {
    let (_, insts) = decode_module(words).unwrap();
    insts
        .iter()
        .filter(|i| !matches!(i, spvkit::grammar::Instruction::Capability(_)))
        .count()
}

#[test]
fn a_declared_extension_is_preferred_to_a_newer_version() {
    let text = format!(
        "OpCapability Shader\nOpExtension \"SPV_KHR_storage_buffer_storage_class\"\n{HEADER}\
         %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%uint = OpTypeInt 32 0\n\
         %S = OpTypeStruct %uint\n%p = OpTypePointer StorageBuffer %S\n\
         %main = OpFunction %void None %fn\n%l = OpLabel\nOpReturn\nOpFunctionEnd\n"
    );
    let words = assemble(&text, "vulkan1.0");
    let req = module_requirements(&words).unwrap();
    assert_eq!(req.min_version, Version(1, 0));
    assert_eq!(
        req.extensions.iter().map(|e| e.name()).collect::<Vec<_>>(),
        vec!["SPV_KHR_storage_buffer_storage_class"]
    );
}

/// `OpSelect` of composites, or of a vector under a scalar condition, is SPIR-V 1.4; a vector
/// under a condition vector of its size is 1.0. spirv-val checks each `update_vce` output.
#[test]
fn select_of_composites_or_under_a_scalar_condition_needs_1_4() {
    let types = "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%bool = OpTypeBool\n\
                 %uint = OpTypeInt 32 0\n%uint_2 = OpConstant %uint 2\n%float = OpTypeFloat 32\n\
                 %v2float = OpTypeVector %float 2\n%v2bool = OpTypeVector %bool 2\n\
                 %S = OpTypeStruct %float\n%arr = OpTypeArray %float %uint_2\n\
                 %true = OpConstantTrue %bool\n%f1 = OpConstant %float 1\n\
                 %v = OpConstantComposite %v2float %f1 %f1\n%vb = OpConstantComposite %v2bool %true %true\n\
                 %s = OpConstantComposite %S %f1\n%a = OpConstantComposite %arr %f1 %f1\n";
    let dir = scratch("select");
    for (select, version) in [
        ("%r = OpSelect %v2float %vb %v %v", Version(1, 0)),
        ("%r = OpSelect %float %true %f1 %f1", Version(1, 0)),
        ("%r = OpSelect %v2float %true %v %v", Version(1, 4)),
        ("%r = OpSelect %S %true %s %s", Version(1, 4)),
        ("%r = OpSelect %arr %true %a %a", Version(1, 4)),
    ] {
        let text = format!(
            "OpCapability Shader\n{HEADER}{types}\
             %main = OpFunction %void None %fn\n%l = OpLabel\n{select}\nOpReturn\nOpFunctionEnd\n"
        );
        let words = assemble(&text, "spv1.4");
        let req = module_requirements(&words).unwrap();
        assert_eq!(req.min_version, version, "{select}");
        let out = update_vce(&words).unwrap();
        assert_eq!(out[1], version.word(), "{select}");
        assert_valid(&out, &dir, select);
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `OpCopyMemory` with a memory-access operand for the target and one for the source is SPIR-V
/// 1.4; with one it is 1.0. spirv-val checks each `update_vce` output.
#[test]
fn copy_memory_with_two_memory_operands_needs_1_4() {
    let dir = scratch("copy");
    for (copy, version) in [
        ("OpCopyMemory %a %b Volatile", Version(1, 0)),
        ("OpCopyMemory %a %b Volatile None", Version(1, 4)),
    ] {
        let text = format!(
            "OpCapability Shader\n{HEADER}%void = OpTypeVoid\n%fn = OpTypeFunction %void\n\
             %float = OpTypeFloat 32\n%ptr = OpTypePointer Function %float\n\
             %main = OpFunction %void None %fn\n%l = OpLabel\n%a = OpVariable %ptr Function\n\
             %b = OpVariable %ptr Function\n{copy}\nOpReturn\nOpFunctionEnd\n"
        );
        let words = assemble(&text, "spv1.4");
        assert_eq!(
            module_requirements(&words).unwrap().min_version,
            version,
            "{copy}"
        );
        let out = update_vce(&words).unwrap();
        assert_valid(&out, &dir, copy);
    }
    std::fs::remove_dir_all(&dir).ok();
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("spvkit-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// spirv-val accepts `words` (written to `dir`); `what` names the case on failure.
fn assert_valid(words: &[u32], dir: &std::path::Path, what: &str) {
    let path = dir.join("m.spv");
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&path, bytes).unwrap();
    let val = Command::new("spirv-val").arg(&path).output().unwrap();
    assert!(
        val.status.success(),
        "{what}: {}",
        String::from_utf8_lossy(&val.stderr)
    );
}

/// `words` with its header version set to `version`: spirv-val rejects it (`what` names the
/// case), so a requirement below the one computed would be wrong.
fn assert_invalid_at(words: &[u32], version: Version, dir: &std::path::Path, what: &str) {
    let mut lowered = words.to_vec();
    lowered[1] = version.word();
    let path = dir.join("lowered.spv");
    let bytes: Vec<u8> = lowered.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&path, bytes).unwrap();
    let val = Command::new("spirv-val").arg(&path).output().unwrap();
    assert!(
        !val.status.success(),
        "{what}: spirv-val accepts it at {version}"
    );
}

/// Version rules that depend on values, not on an enumerant's grammar version (each as
/// spirv-val 2023.1 checks it): `update_vce` settles on the version, its output validates, and
/// the module one version lower does not.
#[test]
fn value_dependent_forms_need_their_version() {
    let dir = scratch("value-versions");
    let compute = |caps: &str, types: &str, body: &str| {
        format!(
            "OpCapability Shader\n{caps}{HEADER}%void = OpTypeVoid\n%fn = OpTypeFunction %void\n\
             %uint = OpTypeInt 32 0\n{types}%main = OpFunction %void None %fn\n%l = OpLabel\n\
             {body}OpReturn\nOpFunctionEnd\n"
        )
    };
    let kernel = |types: &str, body: &str| {
        format!(
            "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n\
             OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %main \"main\"\n\
             %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%uint = OpTypeInt 32 0\n\
             %ulong = OpTypeInt 64 0\n{types}%main = OpFunction %void None %fn\n%l = OpLabel\n\
             {body}OpReturn\nOpFunctionEnd\n"
        )
    };
    let mesh = "OpCapability MeshShadingEXT\nOpExtension \"SPV_EXT_mesh_shader\"\n\
                OpMemoryModel Logical GLSL450\nOpEntryPoint MeshEXT %main \"main\"\n\
                OpExecutionMode %main LocalSize 1 1 1\nOpExecutionMode %main OutputVertices 3\n\
                OpExecutionMode %main OutputPrimitivesEXT 1\nOpExecutionMode %main OutputTrianglesEXT\n\
                %void = OpTypeVoid\n%fn = OpTypeFunction %void\n\
                %main = OpFunction %void None %fn\n%l = OpLabel\nOpReturn\nOpFunctionEnd\n"
        .to_string();
    // A Private hit object, which SPIR-V 1.4 also lists in the interface.
    let reorder = "OpCapability RayTracingKHR\nOpCapability ShaderInvocationReorderNV\n\
                   OpExtension \"SPV_KHR_ray_tracing\"\nOpExtension \"SPV_NV_shader_invocation_reorder\"\n\
                   OpMemoryModel Logical GLSL450\nOpEntryPoint RayGenerationKHR %main \"main\"\n\
                   %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%hit = OpTypeHitObjectNV\n\
                   %ph = OpTypePointer Private %hit\n%h = OpVariable %ph Private\n\
                   %main = OpFunction %void None %fn\n%l = OpLabel\nOpHitObjectRecordEmptyNV %h\n\
                   OpReturn\nOpFunctionEnd\n"
        .to_string();
    let debug_info = |ext: &str| {
        format!(
            "OpCapability Shader\n{ext}%set = OpExtInstImport \"NonSemantic.Shader.DebugInfo.100\"\n\
             {HEADER}%void = OpTypeVoid\n%fn = OpTypeFunction %void\n\
             %main = OpFunction %void None %fn\n%l = OpLabel\nOpReturn\nOpFunctionEnd\n"
        )
    };
    let uconvert = "%s = OpSpecConstant %uint 3\n%w = OpSpecConstantOp %ulong UConvert %s\n";
    let v2uint = "%v2uint = OpTypeVector %uint 2\n%p = OpTypePointer CrossWorkgroup %uint\n\
                  %u = OpUndef %v2uint\n%n = OpUndef %ulong\n";
    let cases: Vec<(&str, String, &str, Version)> = vec![
        ("SPV_EXT_mesh_shader", mesh, "spv1.4", Version(1, 4)),
        (
            "SPV_NV_shader_invocation_reorder",
            reorder,
            "spv1.4",
            Version(1, 4),
        ),
        (
            "a NonSemantic set without SPV_KHR_non_semantic_info",
            debug_info(""),
            "spv1.6",
            Version(1, 6),
        ),
        (
            "a NonSemantic set with SPV_KHR_non_semantic_info",
            debug_info("OpExtension \"SPV_KHR_non_semantic_info\"\n"),
            "spv1.6",
            Version(1, 0),
        ),
        (
            "OpSpecConstantOp UConvert in a shader",
            compute(
                "OpCapability Int64\n",
                &format!("%ulong = OpTypeInt 64 0\n{uconvert}"),
                "",
            ),
            "spv1.4",
            Version(1, 4),
        ),
        (
            "OpSpecConstantOp UConvert in a kernel",
            kernel(uconvert, ""),
            "spv1.4",
            Version(1, 0),
        ),
        (
            "OpBitcast between a pointer and an integer vector",
            kernel(v2uint, "%x = OpBitcast %p %u\n%y = OpBitcast %v2uint %x\n"),
            "spv1.5",
            Version(1, 5),
        ),
        (
            "OpBitcast between a pointer and an integer scalar",
            kernel(v2uint, "%x = OpBitcast %p %n\n%y = OpBitcast %ulong %x\n"),
            "spv1.5",
            Version(1, 0),
        ),
    ];
    // Not checked by spirv-val 2023.1 (its successors do): a broadcast from a computed
    // invocation is SPIR-V 1.5.
    let broadcast = |id: &str| {
        compute(
            "OpCapability GroupNonUniformBallot\nOpCapability GroupNonUniformQuad\n",
            "%three = OpConstant %uint 3\n%one = OpConstant %uint 1\n\
             %pf = OpTypePointer Function %uint\n",
            &format!(
                "%v = OpVariable %pf Function\n%x = OpLoad %uint %v\n\
                 %b = OpGroupNonUniformBroadcast %uint %three %one {id}\n\
                 %q = OpGroupNonUniformQuadBroadcast %uint %three %one {id}\n"
            ),
        )
    };
    for (what, text, version) in [
        (
            "a broadcast from a constant",
            broadcast("%one"),
            Version(1, 3),
        ),
        (
            "a broadcast from a computed id",
            broadcast("%x"),
            Version(1, 5),
        ),
    ] {
        let words = assemble(&text, "spv1.5");
        assert_eq!(
            module_requirements(&words).unwrap().min_version,
            version,
            "{what}"
        );
        assert_valid(&update_vce(&words).unwrap(), &dir, what);
    }
    for (what, text, env, version) in cases {
        let words = assemble(&text, env);
        let req = module_requirements(&words).unwrap();
        assert_eq!(req.min_version, version, "{what}");
        let out = update_vce(&words).unwrap();
        assert_eq!(out[1], version.word(), "{what}");
        assert_valid(&out, &dir, what);
        let via_ir = optimize(
            &words,
            &OptOptions {
                update_vce: true,
                ..Default::default()
            },
        )
        .unwrap();
        assert_valid(&via_ir, &dir, what);
        if version > Version(1, 0) {
            let lower = Version(1, version.1 - 1);
            assert_invalid_at(&out, lower, &dir, what);
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Forms SPIR-V 1.6 forbids make 1.5 the largest version: an `OpBranchConditional` with one
/// label twice, a sampled image of a `Buffer` image.
#[test]
fn forms_that_1_6_forbids_cap_the_version_at_1_5() {
    let dir = scratch("before-1-6");
    let branch = |to_false: &str| {
        format!(
            "OpCapability Shader\n{HEADER}%void = OpTypeVoid\n%fn = OpTypeFunction %void\n\
             %bool = OpTypeBool\n%t = OpConstantTrue %bool\n%main = OpFunction %void None %fn\n\
             %l = OpLabel\nOpSelectionMerge %m None\nOpBranchConditional %t %m {to_false}\n\
             %b = OpLabel\nOpBranch %m\n%m = OpLabel\nOpReturn\nOpFunctionEnd\n"
        )
    };
    let sampled = |dim: &str, cap: &str| {
        format!(
            "OpCapability Shader\n{cap}{HEADER}%void = OpTypeVoid\n%fn = OpTypeFunction %void\n\
             %float = OpTypeFloat 32\n%img = OpTypeImage %float {dim} 0 0 0 1 Unknown\n\
             %si = OpTypeSampledImage %img\n%main = OpFunction %void None %fn\n%l = OpLabel\n\
             OpReturn\nOpFunctionEnd\n"
        )
    };
    for (what, text, max) in [
        (
            "a branch with one label twice",
            branch("%m"),
            Some(Version(1, 5)),
        ),
        ("a branch with two labels", branch("%b"), None),
        (
            "a sampled Buffer image",
            sampled("Buffer", "OpCapability SampledBuffer\n"),
            Some(Version(1, 5)),
        ),
        ("a sampled 2D image", sampled("2D", ""), None),
    ] {
        let words = assemble(&text, "spv1.5");
        assert_valid(&words, &dir, what);
        let req = module_requirements(&words).unwrap();
        assert_eq!(req.max_version, max, "{what}");
        if max.is_some() {
            assert_invalid_at(&words, Version(1, 6), &dir, what);
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Raised to SPIR-V 1.4 (here by an `OpSelect` of a struct), a module's entry point lists every
/// global variable its call tree uses, once: the repeated `Input` goes, the `Private` used in a
/// callee and the `Workgroup` used in the entry function come in, the unused `Private` stays
/// out. Both update paths agree; without the interface, spirv-val rejects the module at 1.4.
#[test]
fn raising_to_1_4_completes_the_entry_point_interfaces() {
    let dir = scratch("interfaces");
    let text = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n\
                OpEntryPoint GLCompute %main \"main\" %gid %gid\n\
                OpExecutionMode %main LocalSize 1 1 1\nOpName %gid \"gid\"\nOpName %priv \"priv\"\n\
                OpName %unused \"unused\"\nOpName %wg \"wg\"\nOpDecorate %gid BuiltIn GlobalInvocationId\n\
                %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%bool = OpTypeBool\n\
                %uint = OpTypeInt 32 0\n%v3uint = OpTypeVector %uint 3\n\
                %pin = OpTypePointer Input %v3uint\n%gid = OpVariable %pin Input\n\
                %pp = OpTypePointer Private %uint\n%pw = OpTypePointer Workgroup %uint\n\
                %priv = OpVariable %pp Private\n%unused = OpVariable %pp Private\n\
                %wg = OpVariable %pw Workgroup\n%S = OpTypeStruct %uint\n\
                %t = OpConstantTrue %bool\n%one = OpConstant %uint 1\n%s = OpConstantComposite %S %one\n\
                %f = OpFunction %void None %fn\n%fl = OpLabel\nOpStore %priv %one\nOpReturn\nOpFunctionEnd\n\
                %main = OpFunction %void None %fn\n%l = OpLabel\n%g = OpLoad %v3uint %gid\n\
                OpStore %wg %one\n%c = OpFunctionCall %void %f\n%r = OpSelect %S %t %s %s\n\
                OpReturn\nOpFunctionEnd\n";
    let words = assemble(text, "spv1.3");
    assert_invalid_at(&words, Version(1, 4), &dir, "the 1.3 interface");
    let interface = |w: &[u32]| -> Vec<String> {
        let (_, insts) = decode_module(w).unwrap();
        let names: std::collections::HashMap<u32, String> = insts
            .iter()
            .filter_map(|i| match i {
                spvkit::grammar::Instruction::Name(n) => Some((n.target.0, n.name.clone())),
                _ => None,
            })
            .collect();
        insts
            .iter()
            .find_map(|i| match i {
                spvkit::grammar::Instruction::EntryPoint(e) => Some(
                    e.interfaces
                        .iter()
                        .map(|v| names.get(&v.0).cloned().unwrap_or_default())
                        .collect(),
                ),
                _ => None,
            })
            .unwrap()
    };
    let out = update_vce(&words).unwrap();
    assert_eq!(out[1], Version(1, 4).word());
    assert_eq!(interface(&out), ["gid", "priv", "wg"]);
    assert_valid(&out, &dir, "update_vce");
    let via_ir = optimize(
        &words,
        &OptOptions {
            update_vce: true,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(via_ir[1], Version(1, 4).word());
    assert_eq!(interface(&via_ir), ["gid", "priv", "wg"]);
    assert_valid(&via_ir, &dir, "opt --update-vce");
    std::fs::remove_dir_all(&dir).ok();
}

/// Down from SPIR-V 1.4: an interface that lists a `Private` variable keeps the module at 1.4
/// (before, an interface lists only `Input` and `Output`); one that lists only those goes down.
#[test]
fn an_update_down_keeps_interfaces_valid() {
    let dir = scratch("interfaces-down");
    let module = |interface: &str| {
        format!(
            "OpCapability Shader\nOpMemoryModel Logical GLSL450\n\
             OpEntryPoint GLCompute %main \"main\" {interface}\n\
             OpExecutionMode %main LocalSize 1 1 1\nOpDecorate %gid BuiltIn GlobalInvocationId\n\
             %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%uint = OpTypeInt 32 0\n\
             %v3uint = OpTypeVector %uint 3\n%pin = OpTypePointer Input %v3uint\n\
             %gid = OpVariable %pin Input\n%pp = OpTypePointer Private %uint\n\
             %priv = OpVariable %pp Private\n%one = OpConstant %uint 1\n\
             %main = OpFunction %void None %fn\n%l = OpLabel\n%g = OpLoad %v3uint %gid\n\
             {body}OpReturn\nOpFunctionEnd\n",
            body = if interface.contains("%priv") {
                "OpStore %priv %one\n"
            } else {
                ""
            }
        )
    };
    for (interface, version) in [("%gid %priv", Version(1, 4)), ("%gid", Version(1, 0))] {
        let words = assemble(&module(interface), "spv1.4");
        assert_valid(&words, &dir, interface);
        let out = update_vce(&words).unwrap();
        assert_eq!(out[1], version.word(), "{interface}");
        assert_valid(&out, &dir, interface);
        if version == Version(1, 4) {
            assert_invalid_at(&out, Version(1, 3), &dir, interface);
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Operand values whose grammar enumerant has a version of its own count: `MinIterations`
/// (1.4), `SignExtend` (1.4), `NoSignedWrap` (1.4 or its extension), `LocalSizeId` (1.2).
#[test]
fn enumerant_versions_of_operand_values_count() {
    let dir = scratch("enumerants");
    let loop_ = |control: &str| {
        format!(
            "OpCapability Shader\n{HEADER}%void = OpTypeVoid\n%fn = OpTypeFunction %void\n\
             %bool = OpTypeBool\n%t = OpConstantTrue %bool\n%main = OpFunction %void None %fn\n\
             %l = OpLabel\nOpBranch %h\n%h = OpLabel\nOpLoopMerge %m %c {control}\n\
             OpBranchConditional %t %c %m\n%c = OpLabel\nOpBranch %h\n%m = OpLabel\nOpReturn\n\
             OpFunctionEnd\n"
        )
    };
    let image = "OpCapability Shader\nOpCapability StorageImageReadWithoutFormat\n\
                 OpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"\n\
                 OpExecutionMode %main LocalSize 1 1 1\nOpDecorate %img DescriptorSet 0\n\
                 OpDecorate %img Binding 0\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n\
                 %int = OpTypeInt 32 1\n%v4int = OpTypeVector %int 4\n%v2int = OpTypeVector %int 2\n\
                 %zero = OpConstant %int 0\n%coord = OpConstantComposite %v2int %zero %zero\n\
                 %it = OpTypeImage %int 2D 0 0 0 2 Unknown\n%pit = OpTypePointer UniformConstant %it\n\
                 %img = OpVariable %pit UniformConstant\n%main = OpFunction %void None %fn\n\
                 %l = OpLabel\n%i = OpLoad %it %img\n%r = OpImageRead %v4int %i %coord SignExtend\n\
                 OpReturn\nOpFunctionEnd\n"
        .to_string();
    let wrap = format!(
        "OpCapability Shader\n{HEADER}OpDecorate %s NoSignedWrap\n%void = OpTypeVoid\n\
         %fn = OpTypeFunction %void\n%uint = OpTypeInt 32 0\n%one = OpConstant %uint 1\n\
         %main = OpFunction %void None %fn\n%l = OpLabel\n%s = OpIAdd %uint %one %one\n\
         OpReturn\nOpFunctionEnd\n"
    );
    let local_size_id = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n\
                         OpEntryPoint GLCompute %main \"main\"\n\
                         OpExecutionModeId %main LocalSizeId %one %one %one\n%void = OpTypeVoid\n\
                         %fn = OpTypeFunction %void\n%uint = OpTypeInt 32 0\n%one = OpConstant %uint 1\n\
                         %main = OpFunction %void None %fn\n%l = OpLabel\nOpReturn\nOpFunctionEnd\n"
        .to_string();
    for (what, text, env, version) in [
        (
            "MinIterations",
            loop_("MinIterations 4"),
            "spv1.4",
            Version(1, 4),
        ),
        ("no loop control", loop_("None"), "spv1.4", Version(1, 0)),
        ("SignExtend", image, "spv1.4", Version(1, 4)),
        ("NoSignedWrap", wrap, "spv1.4", Version(1, 4)),
        ("LocalSizeId", local_size_id, "spv1.2", Version(1, 2)),
    ] {
        let words = assemble(&text, env);
        let out = update_vce(&words).unwrap();
        assert_eq!(out[1], version.word(), "{what}");
        assert_valid(&out, &dir, what);
        if version > Version(1, 0) {
            assert_invalid_at(&out, Version(1, version.1 - 1), &dir, what);
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// An access chain decorated `NonUniform` into an array of descriptors needs the array's
/// non-uniform indexing capability, by descriptor kind (the grammar names none of them); an
/// undecorated one, or one into a single descriptor, needs none.
#[test]
fn non_uniform_access_chains_need_their_indexing_capability() {
    let decls = "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%uint = OpTypeInt 32 0\n\
         %float = OpTypeFloat 32\n%u4 = OpConstant %uint 4\n%u0 = OpConstant %uint 0\n\
         %img = OpTypeImage %float 2D 0 0 0 1 Unknown\n%simg = OpTypeImage %float 2D 0 0 0 2 Rgba32f\n\
         %tbuf = OpTypeImage %float Buffer 0 0 0 1 Unknown\n%smp = OpTypeSampler\n\
         %blk = OpTypeStruct %float\n\
         %a_img = OpTypeArray %img %u4\n%a_simg = OpTypeArray %simg %u4\n%a_tbuf = OpTypeRuntimeArray %tbuf\n\
         %a_smp = OpTypeArray %smp %u4\n%a_blk = OpTypeArray %blk %u4\n\
         %p_a_img = OpTypePointer UniformConstant %a_img\n%p_a_simg = OpTypePointer UniformConstant %a_simg\n\
         %p_a_tbuf = OpTypePointer UniformConstant %a_tbuf\n%p_a_smp = OpTypePointer UniformConstant %a_smp\n\
         %p_a_blk = OpTypePointer StorageBuffer %a_blk\n\
         %p_img = OpTypePointer UniformConstant %img\n%p_simg = OpTypePointer UniformConstant %simg\n\
         %p_tbuf = OpTypePointer UniformConstant %tbuf\n%p_smp = OpTypePointer UniformConstant %smp\n\
         %p_blk = OpTypePointer StorageBuffer %blk\n\
         %v_img = OpVariable %p_a_img UniformConstant\n%v_simg = OpVariable %p_a_simg UniformConstant\n\
         %v_tbuf = OpVariable %p_a_tbuf UniformConstant\n%v_smp = OpVariable %p_a_smp UniformConstant\n\
         %v_blk = OpVariable %p_a_blk StorageBuffer\n";
    let chains = [
        (
            "%v_img",
            "%p_img",
            Capability::SampledImageArrayNonUniformIndexing,
        ),
        (
            "%v_simg",
            "%p_simg",
            Capability::StorageImageArrayNonUniformIndexing,
        ),
        (
            "%v_tbuf",
            "%p_tbuf",
            Capability::UniformTexelBufferArrayNonUniformIndexing,
        ),
        (
            "%v_smp",
            "%p_smp",
            Capability::SampledImageArrayNonUniformIndexing,
        ),
        (
            "%v_blk",
            "%p_blk",
            Capability::StorageBufferArrayNonUniformIndexing,
        ),
    ];
    for (var, ptr, cap) in chains {
        for decorated in [true, false] {
            let deco = if decorated {
                "OpDecorate %c NonUniform\n"
            } else {
                ""
            };
            let text = format!(
                "OpCapability Shader\nOpCapability ShaderNonUniform\nOpCapability RuntimeDescriptorArray\n\
                 OpCapability SampledBuffer\nOpMemoryModel Logical GLSL450\n\
                 OpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n\
                 {deco}{decls}%main = OpFunction %void None %fn\n%l = OpLabel\n\
                 %c = OpAccessChain {ptr} {var} %u0\nOpReturn\nOpFunctionEnd\n"
            );
            let words = assemble(&text, "spv1.5");
            let req = module_requirements(&words).unwrap();
            assert_eq!(
                req.capabilities.contains(&cap),
                decorated,
                "{var} decorated {decorated}: {:?}",
                req.capabilities
            );
        }
    }
}
