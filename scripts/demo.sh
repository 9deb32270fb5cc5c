#!/usr/bin/env bash
# The main demo: assemble the bundled example with spvkit, disassemble it, round-trip it, and
# check the result against spirv-val and SPIRV-Tools.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo build --release --quiet
spvkit=target/release/spvkit
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "== spvkit as examples/hello.spvasm"
$spvkit as --target-env vulkan1.0 examples/hello.spvasm -o "$out/hello.spv"
spirv-val --target-env vulkan1.0 "$out/hello.spv" && echo "spirv-val: valid"
spirv-as --target-env vulkan1.0 examples/hello.spvasm -o "$out/ref.spv"
cmp "$out/hello.spv" "$out/ref.spv" && echo "identical to spirv-as's bytes"

echo "== spvkit dis"
$spvkit dis "$out/hello.spv" | tee "$out/hello.dis"
spirv-dis "$out/hello.spv" -o "$out/ref.dis"
diff "$out/hello.dis" "$out/ref.dis" && echo "identical to spirv-dis's text"

echo "== round trip: as(dis(as(x))) == as(x)"
$spvkit as --target-env vulkan1.0 "$out/hello.dis" -o "$out/again.spv"
cmp "$out/hello.spv" "$out/again.spv" && echo "round trip is byte-identical"

echo "== spvkit val and spvkit opt --update-vce"
$spvkit val --target-env vulkan1.0 "$out/hello.spv" && echo "spvkit val: valid"
$spvkit opt --update-vce "$out/hello.spv" -o "$out/opt.spv"
spirv-val --target-env vulkan1.0 "$out/opt.spv" && echo "spirv-val: the IR round trip is valid"

echo "== spvkit lower: LLVM 19 IR"
$spvkit lower -O2 "$out/hello.spv" -o "$out/hello.ll"
grep -A8 '^define.*spvkit.entry.main' "$out/hello.ll" || true
/usr/lib/llvm-19/bin/opt -passes=verify -disable-output "$out/hello.ll" && echo "LLVM 19's opt accepts it"

echo "== spvkit run: the shader JIT-compiled and run on the CPU over 2 workgroups"
cat > "$out/job.json" <<'JOB'
{"dispatch": [2], "buffers": [{"set": 0, "binding": 0, "layout": ["f32"],
  "data": [0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5, 5.5, 6, 6.5, 7, 7.5, 8, 8.5, 9, 9.5, 10,
           10.5, 11, 11.5, 12, 12.5, 13, 13.5, 14, 14.5, 15, 15.5, 16, 16.5, 17, 17.5, 18, 18.5,
           19, 19.5, 20, 20.5, 21, 21.5, 22, 22.5, 23, 23.5, 24, 24.5, 25, 25.5, 26, 26.5, 27,
           27.5, 28, 28.5, 29, 29.5, 30, 30.5, 31, 31.5, 32, 32.5, 33, 33.5, 34, 34.5, 35, 35.5,
           36, 36.5, 37, 37.5, 38, 38.5, 39, 39.5, 40, 40.5, 41, 41.5, 42, 42.5, 43, 43.5, 44,
           44.5, 45, 45.5, 46, 46.5, 47, 47.5, 48, 48.5, 49, 49.5, 50, 50.5, 51, 51.5, 52, 52.5,
           53, 53.5, 54, 54.5, 55, 55.5, 56, 56.5, 57, 57.5, 58, 58.5, 59, 59.5, 60, 60.5, 61,
           61.5, 62, 62.5, 63, 63.5, 64]}]}
JOB
$spvkit run "$out/hello.spv" --job "$out/job.json" | tee "$out/run.json" | cut -c1-120
python3 - "$out/run.json" <<'PY'
import json, sys
data = json.load(open(sys.argv[1]))["buffers"][0]["data"]
want = [2 * 0.5 * (i + 1) for i in range(128)]
assert data == want, (data[:8], want[:8])
print("every element doubled: ok")
PY


echo "== hlsl2spirv: an HLSL compute shader to Vulkan SPIR-V, validated and run"
hlsl=tests/corpus/hlsl/compute/func_calls_chain
target/release/hlsl2spirv "$hlsl.hlsl" -T cs_6_0 -E main -Fo "$out/hlsl.spv"
spirv-val --target-env vulkan1.0 "$out/hlsl.spv" && echo "spirv-val: valid"
$spvkit run "$out/hlsl.spv" --job "$hlsl.job.json" | tee "$out/hlsl.json"
python3 - "$out/hlsl.json" "$hlsl.expected.json" <<'PY'
import json, sys
got, want = (json.load(open(p))["buffers"] for p in sys.argv[1:3])
for w in want:
    g = next(b for b in got if (b["set"], b["binding"]) == (w["set"], w["binding"]))
    assert g["data"] == w["data"], (g["data"], w["data"])
print("the buffers computed on the CPU equal the expected ones: ok")
PY

echo "== OpenCL C → clang-15 → spvkit from-llvm → SPIR-V → spvkit run"
cl=tests/corpus/opencl/from_llvm/vector_add
clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL2.0 -emit-llvm-bc -finclude-default-header \
  -no-opaque-pointers -O2 "$cl.cl" -o "$out/vector_add.bc"
$spvkit from-llvm "$out/vector_add.bc" -o "$out/vector_add.spv"
spirv-val --target-env opencl2.0 "$out/vector_add.spv" && echo "spirv-val: valid"
$spvkit lower --style spv-ir "$out/vector_add.spv" -o "$out/vector_add.spvir.ll"
grep -m2 -E '^(target triple|define .*spir_kernel)' "$out/vector_add.spvir.ll"
$spvkit run "$out/vector_add.spv" --job "$cl.job.json" | tee "$out/cl.json" | cut -c1-160
python3 - "$out/cl.json" "$cl.job.json" <<'PY'
import json, sys
got = {e["arg"]: e["data"] for e in json.load(open(sys.argv[1]))["buffers"] if "arg" in e}
args = json.load(open(sys.argv[2]))["args"]
assert got[2] == [x + y for x, y in zip(args[0]["data"], args[1]["data"])], got[2]
print("c = a + b on the CPU: ok")
PY
