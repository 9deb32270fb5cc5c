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
