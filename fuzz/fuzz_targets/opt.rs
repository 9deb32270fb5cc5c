//! Any bytes: every optimizer pass, alone and in sequence, never panics on what deserializes;
//! its output passes `ir::check` (it serializes) and reads back; and a module spvkit's
//! validator accepts stays accepted.
#![no_main]

use libfuzzer_sys::fuzz_target;
use spvkit::opt::Pass;
use spvkit::target_env::TargetEnv;

fuzz_target!(|data: &[u8]| {
    let Ok(words) = spvkit::binary::words_from_bytes(data) else {
        return;
    };
    let Ok(module) = spvkit::ir::deserialize(&words) else {
        return;
    };
    let valid = spvkit::validate::validate(&words, TargetEnv::Universal1_6).is_ok();
    let mut pipelines: Vec<Vec<Pass>> = Pass::ALL.iter().map(|&p| vec![p]).collect();
    pipelines.push(Pass::ALL.to_vec());
    pipelines.push(spvkit::opt::PERFORMANCE.to_vec());
    pipelines.push(spvkit::opt::LEGALIZE_HLSL.to_vec());
    for pipeline in pipelines {
        let mut m = module.clone();
        for pass in &pipeline {
            pass.run(&mut m);
        }
        let out = spvkit::ir::serialize(&m).expect("an optimized module passes ir::check");
        spvkit::ir::deserialize(&out).expect("an optimized module reads back");
        if valid {
            if let Err(errors) = spvkit::validate::validate(&out, TargetEnv::Universal1_6) {
                panic!("{pipeline:?} made a valid module invalid: {errors:?}");
            }
        }
    }
});
