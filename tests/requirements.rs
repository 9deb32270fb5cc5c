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
        let via_ir = optimize(&words, &OptOptions { update_vce: true }).unwrap();
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
