#!/usr/bin/env bash
# Whole-process timing of `spvkit run` against lavapipe (examples/vkrun.rs, the tests' Vulkan
# runner behind the same command line and JSON) on the benchmarks of benches/run.rs: SAXPY over
# 16M floats and a 512 x 512 tiled matmul. The jobs (200 MB and 3 MB of JSON) are generated
# into a temporary directory; both programs read the same SPIR-V and job files and write their
# buffers to a file, and their outputs must be identical. hyperfine reports the medians.
#
#   scripts/bench-run.sh [RUNS]          (default 10 runs per command, 1 warm-up)
#   SPVKIT=path/to/spvkit scripts/bench-run.sh   (time another spvkit binary)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}
target=${CARGO_TARGET_DIR:-target}
cargo build --release --bin spvkit --example vkrun >&2
spvkit=${SPVKIT:-$target/release/spvkit}
vkrun=$target/release/examples/vkrun
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$vkrun" --bench-jobs "$tmp"
glslangValidator -V --target-env vulkan1.1 tests/corpus/compute/saxpy.comp -o "$tmp/saxpy.spv" >/dev/null
glslangValidator -V --target-env vulkan1.1 tests/corpus/compute/tiled_matmul.comp -o "$tmp/matmul.spv" >/dev/null
for b in saxpy matmul; do
    "$spvkit" run "$tmp/$b.spv" --job "$tmp/$b.job.json" -o "$tmp/$b.spvkit.json"
    "$vkrun" "$tmp/$b.spv" --job "$tmp/$b.job.json" -o "$tmp/$b.vkrun.json"
    if ! cmp -s "$tmp/$b.spvkit.json" "$tmp/$b.vkrun.json"; then
        echo "$b: spvkit run and lavapipe disagree" >&2
        exit 1
    fi
    hyperfine -N --style basic --warmup 1 --runs "$runs" --export-csv "$tmp/$b.csv" \
        -n "spvkit run ($b)" "$spvkit run $tmp/$b.spv --job $tmp/$b.job.json -o $tmp/$b.out.json" \
        -n "lavapipe ($b)" "$vkrun $tmp/$b.spv --job $tmp/$b.job.json -o $tmp/$b.out.json" >&2
    # CSV columns: command, mean, stddev, median, user, system, min, max (seconds).
    awk -F, -v b="$b" -v n="$runs" 'NR == 2 { s = $4 } NR == 3 { v = $4 }
        END { printf "%s: spvkit run %.0f ms, lavapipe %.0f ms (medians of %d), lavapipe/spvkit = %.2fx\n", b, s * 1e3, v * 1e3, n, v / s }' "$tmp/$b.csv"
done
