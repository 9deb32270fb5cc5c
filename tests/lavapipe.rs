//! The lavapipe side of the `spvkit run` oracle on its own: the Vulkan runner of
//! `tests/support/vulkan.rs` runs corpus shaders with the job model, and its buffers match
//! values computed here in Rust; every corpus job runs and is reproducible.
#![cfg(feature = "run")]

#[path = "support/compute.rs"]
mod compute;
#[path = "support/vulkan.rs"]
mod vulkan;

use spvkit::run::RunOutput;

fn f32s(out: &RunOutput, set: u32, binding: u32) -> Vec<f32> {
    out.binding(set, binding)
        .expect("buffer in the output")
        .bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn u32s(out: &RunOutput, set: u32, binding: u32) -> Vec<u32> {
    out.binding(set, binding)
        .expect("buffer in the output")
        .bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn run(file: &str) -> (compute::Shader, RunOutput) {
    let vk = vulkan::Vulkan::new().expect("a Vulkan device (apt-get install mesa-vulkan-drivers)");
    let shader = compute::load_named(file);
    let out = vk
        .run(&shader.words, &shader.job)
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    (shader, out)
}

#[test]
fn the_device_is_lavapipe() {
    let vk = vulkan::Vulkan::new().unwrap();
    assert!(vk.device_name.contains("llvmpipe"), "{}", vk.device_name);
}

#[test]
fn saxpy_matches_rust() {
    let (shader, out) = run("saxpy.comp");
    let x: Vec<f32> = (0..1024).map(|i| i as f32 * 0.25 - 100.0).collect();
    let y0: Vec<f32> = (0..1024).map(|i| (i % 17) as f32 * 1.5).collect();
    let want: Vec<f32> = (0..1024)
        .map(|i| if i < 1000 { 2.5 * x[i] + y0[i] } else { y0[i] })
        .collect();
    assert_eq!(f32s(&out, 0, 1), want);
    assert_eq!(shader.tolerance.ulps, 1);
}

#[test]
fn shared_memory_reduction_matches_rust() {
    let (_, out) = run("shared_reduction.comp");
    let input: Vec<u32> = (0..512u64)
        .map(|i| ((i * 2654435761) % 100003) as u32)
        .collect();
    let want: Vec<u32> = input
        .chunks(64)
        .flat_map(|c| {
            [
                c.iter().sum(),
                *c.iter().min().unwrap(),
                *c.iter().max().unwrap(),
                8,
            ]
        })
        .collect();
    assert_eq!(u32s(&out, 0, 1), want);
}

#[test]
fn tiled_matmul_matches_rust() {
    let (_, out) = run("tiled_matmul.comp");
    let n = 32;
    let a: Vec<f32> = (0..n * n)
        .map(|i| ((i * 7 + 3) % 13) as f32 - 6.0)
        .collect();
    let b: Vec<f32> = (0..n * n)
        .map(|i| (((i * 5 + 1) % 9) as f32 - 4.0) * 0.5)
        .collect();
    let mut want = vec![0f32; n * n];
    for r in 0..n {
        for c in 0..n {
            want[r * n + c] = (0..n).map(|k| a[r * n + k] * b[k * n + c]).sum();
        }
    }
    assert_eq!(f32s(&out, 0, 2), want);
}

#[test]
fn spec_constants_and_push_constants_reach_the_shader() {
    let (_, out) = run("spec_constants.comp");
    // K = -3, F = 0.75, NEG = true, SHIFT = 2, workgroup size 8, 4 workgroups.
    let want: Vec<f32> = (0..32).map(|i| -((i * -3) as f32 * 0.75)).collect();
    assert_eq!(f32s(&out, 0, 0), want);
    let want: Vec<u32> = (0..32u32)
        .map(|i| (i & 3) | 8 << 16 | (i / 8) << 24)
        .collect();
    assert_eq!(u32s(&out, 0, 1), want);

    let (_, out) = run("push_constants.comp");
    let weights = [1.0f32, 0.25, -2.0, 8.0];
    let want: Vec<f32> = (0..24)
        .map(|i| {
            if i >= 20 {
                return i as f32;
            }
            let mut x = i as f32;
            for (k, w) in weights.iter().enumerate() {
                x = x * 0.5 + w * (k + 1) as f32;
            }
            x - 3.0
        })
        .collect();
    assert_eq!(f32s(&out, 0, 0), want);
}

#[test]
fn std140_uniform_buffer_in_set_one() {
    let (_, out) = run("uniform_std140.comp");
    let coeffs = [1.5f32, -2.0, 3.25, 4.0];
    let want: Vec<f32> = (0..4)
        .flat_map(|i| {
            let fi = i as f32;
            // rot = mat4 with columns (0, 1, 0, 0), (-1, 0, 0, 0), e3, e4: (rot * (i, 1, 0, 0)).xy = (-1, i).
            [coeffs[i] * 2.0 + 0.5, -1.0, fi, (3 * i + 7) as f32 - 1.0]
        })
        .collect();
    assert_eq!(f32s(&out, 0, 0), want);
}

#[test]
fn builtins_over_a_3d_grid() {
    let (_, out) = run("builtins.comp");
    let r = u32s(&out, 0, 0);
    let (w, h) = (12u32, 4u32);
    for gz in 0..4u32 {
        for gy in 0..h {
            for gx in 0..w {
                let lin = gx + w * (gy + h * gz);
                let (l, g) = ([gx % 4, gy % 2, gz % 2], [gx / 4, gy / 2, gz / 2]);
                let want = [
                    gx,
                    gy,
                    gz,
                    l[0],
                    l[1],
                    l[2],
                    g[0],
                    g[1],
                    g[2],
                    3,
                    2,
                    2,
                    l[0] + 4 * l[1] + 8 * l[2],
                    422,
                    lin,
                    0xC0FFEE,
                ];
                let at = lin as usize * 16;
                assert_eq!(r[at..at + 16], want, "invocation {gx},{gy},{gz}");
            }
        }
    }
}

#[test]
fn hlsl_prefix_sum_matches_rust() {
    let (_, out) = run("hlsl_groupshared.hlsl");
    let input: Vec<u32> = (0..192).map(|i| (i * 37 + 11) % 101).collect();
    let mut want = Vec::new();
    let mut totals = Vec::new();
    for c in input.chunks(32) {
        let mut acc = 0;
        for &x in c {
            acc += x;
            want.push(acc);
        }
        totals.push(acc);
    }
    assert_eq!(u32s(&out, 0, 0), want);
    assert_eq!(u32s(&out, 0, 1), totals);
}

#[test]
fn every_corpus_job_runs_reproducibly() {
    let vk = vulkan::Vulkan::new().unwrap();
    let shaders = compute::load_all();
    assert!(shaders.len() >= 20, "{} shaders", shaders.len());
    for s in &shaders {
        let first = vk
            .run(&s.words, &s.job)
            .unwrap_or_else(|e| panic!("{}: {e}", s.name));
        let again = vk.run(&s.words, &s.job).unwrap();
        assert_eq!(first, again, "{}: two runs differ", s.name);
        let changed = first
            .buffers
            .iter()
            .zip(&s.job.buffers)
            .any(|(o, b)| o.data.bytes != b.data.bytes);
        assert!(changed, "{}: the shader wrote nothing", s.name);
    }
}

#[test]
fn the_comparison_accepts_equal_runs_and_reports_differences() {
    let vk = vulkan::Vulkan::new().unwrap();
    let s = compute::load_named("arith_float.comp");
    let a = vk.run(&s.words, &s.job).unwrap();
    assert!(compute::differences(&a, &a, compute::Tolerance::default()).is_empty());
    let mut b = a.clone();
    // One ulp off in the first float result.
    let bytes = &mut b.buffers[1].data.bytes;
    let x = f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
    bytes[..4].copy_from_slice(&f32::from_bits(x.to_bits() + 1).to_le_bytes());
    let strict = compute::differences(&a, &b, compute::Tolerance::default());
    assert_eq!(strict.len(), 1, "{strict:?}");
    assert!(
        strict[0].starts_with("set 0 binding 1 [0] (f32): want 3.75, got 3.7500002"),
        "{strict:?}"
    );
    let loose = compute::Tolerance {
        ulps: 1,
        ..Default::default()
    };
    assert!(compute::differences(&a, &b, loose).is_empty());
}
