//! Any bytes, in every target environment: validating never panics, and a rejected module
//! always comes with at least one error naming a rule.
#![no_main]

use libfuzzer_sys::fuzz_target;
use spvkit::target_env::TargetEnv;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let Ok(words) = spvkit::binary::words_from_bytes(rest) else {
        return;
    };
    let env = TargetEnv::ALL[usize::from(selector) % TargetEnv::ALL.len()];
    if let Err(errors) = spvkit::validate::validate(&words, env) {
        assert!(!errors.is_empty(), "a rejection without errors");
        assert!(errors.iter().all(|e| !e.rule.is_empty()));
    }
});
