#!/usr/bin/env bash
# The whole test suite: formatting, lints, tests against the bundled grammar, and the build and
# tests against every newer grammar in ../shared/grammar.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --quiet -- -D warnings
cargo test --workspace
for dir in ../shared/grammar/*/; do
  [ -f "$dir/spirv.core.grammar.json" ] || continue
  echo "== tests against the grammar in $dir"
  SPIRV_GRAMMAR_DIR="$dir" cargo test --test grammar --test binary --test codec
done
