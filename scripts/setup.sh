#!/usr/bin/env bash
# Installs the system packages spvkit's tools and tests use (Debian 12). Idempotent and quiet
# when everything is already there.
set -euo pipefail

packages=(
  spirv-tools      # spirv-as, spirv-dis, spirv-val: the oracles of the text codec and validator
  spirv-headers    # the grammar and spir-v.xml that grammar/ is copied from
  glslang-tools    # glslangValidator: GLSL and HLSL to SPIR-V for the test corpus
  llvm-spirv-15    # SPIRV-LLVM-Translator: OpenCL kernels for the test corpus
  clang-15         # OpenCL C to LLVM bitcode for the test corpus
  hyperfine        # whole-process timing in benchmarks
  llvm-19-dev      # libLLVM 19 for the lowering and the JIT (inkwell / llvm-sys)
  g++              # compiles from-llvm's lazy-bitcode shim (src/from_llvm/lazy.cpp) against it
  libzstd-dev      # llvm-config --system-libs asks for it
  zlib1g-dev       # idem
  mesa-vulkan-drivers  # lavapipe: the Vulkan CPU driver that is the oracle of `spvkit run`
  libvulkan-dev    # the Vulkan loader the ash test runner opens
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! command -v cargo >/dev/null 2>&1; then
  echo "setup: cargo not found; install a Rust toolchain (1.87 or newer) with rustup first" >&2
  exit 1
fi

# The 2024 SPIRV-LLVM-Translator (reads LLVM 19 bitcode and newer SPIR-V text than
# llvm-spirv-15): the translator conformance suite assembles some inputs with it.
if ! python3 -c "import dpcpp_llvm_spirv" >/dev/null 2>&1; then
  echo "setup: installing dpcpp-llvm-spirv==2024.2.0 from PyPI"
  python3 -m pip install --quiet --disable-pip-version-check dpcpp-llvm-spirv==2024.2.0
fi

# Python's jsonschema checks docs/job.schema.json against every job of the tests.
if ! python3 -c "import jsonschema" >/dev/null 2>&1; then
  echo "setup: installing jsonschema from PyPI"
  python3 -m pip install --quiet --disable-pip-version-check jsonschema
fi
