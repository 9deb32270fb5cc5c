#!/usr/bin/env bash
# The crate as it would be published: `cargo package` for the workspace (which builds each
# packaged crate from its .crate alone), a size check, then the README's examples as the
# doctests of the packaged library, built in a directory outside this workspace with only
# the registry and the packaged generator.
set -euo pipefail
cd "$(dirname "$0")/.."
# Cargo verifies the library against the packaged generator, extracted under the registry
# cache and reused while its version is unchanged: a stale extraction would hide a generator
# change, so none is kept.
rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/spvkit-generator-*
cargo package --workspace --quiet
crate=$(ls target/package/spvkit-toolkit-*.crate)
size=$(stat -c %s "$crate")
echo "package: $crate, $size bytes compressed"
if [ "$size" -ge 2000000 ]; then
  echo "package.sh: the package is over 2 MB compressed" >&2
  exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -xzf "$crate" -C "$tmp"
tar -xzf target/package/spvkit-generator-*.crate -C "$tmp"
pkg=$(ls -d "$tmp"/spvkit-toolkit-*)
gen=$(ls -d "$tmp"/spvkit-generator-*)
# A workspace of its own; the generator, not on the registry yet, from its packaged form.
printf '\n[workspace]\n\n[patch.crates-io]\nspvkit-generator = { path = "%s" }\n' "$gen" \
  >> "$pkg/Cargo.toml"
CARGO_TARGET_DIR="$PWD/target" cargo test --quiet --doc --manifest-path "$pkg/Cargo.toml"
