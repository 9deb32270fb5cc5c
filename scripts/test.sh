#!/usr/bin/env bash
# The whole test suite: formatting, lints, tests against the bundled grammar, and the build and
# tests against every newer grammar in ../shared/grammar.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --quiet -- -D warnings
# The library without default features (codec, text, IR, requirements, validator): no LLVM,
# CLI or JSON dependency may creep back in, and what it has must build, lint and pass alone.
if cargo tree -e normal --no-default-features -p spvkit-toolkit --prefix none | grep -E '^(inkwell|clap|serde_json|zmij) '; then
  echo "test.sh: the no-default-features library depends on the crates above" >&2
  exit 1
fi
cargo clippy --no-default-features --all-targets --quiet -- -D warnings
cargo test --no-default-features --quiet --lib --test binary --test codec --test dis --test ir \
  --test ir_builder --test requirements --test validate
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --quiet
cargo test --workspace
# The packaged crate: builds alone, under 2 MB, the README's examples pass as its doctests.
bash scripts/package.sh
for dir in ../shared/grammar/*/; do
  [ -f "$dir/spirv.core.grammar.json" ] || continue
  echo "== tests against the grammar in $dir"
  SPIRV_GRAMMAR_DIR="$dir" cargo test --test grammar --test binary --test codec
done
